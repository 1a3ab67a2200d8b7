// Command parent-stamper stamps the parents of one custom resource, read
// through a dynamic informer's lister as unstructured objects.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

var parents = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "parents"}

// stamper keeps a stamp label on every parent.
type stamper struct {
	client dynamic.Interface
	lister dynamiclister.Lister
	queue  workqueue.TypedRateLimitingInterface[string]
}

func main() {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", os.Getenv("KUBECONFIG"))
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := dynamicinformer.NewDynamicSharedInformerFactory(client, 10*time.Minute)
	informer := factory.ForResource(parents).Informer()
	s := &stamper{
		client: client,
		lister: dynamiclister.New(informer.GetIndexer(), parents),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    s.enqueue,                           // want "stage-watch"
		UpdateFunc: func(_, obj any) { s.enqueue(obj) }, // want "re-entry:Unstructured update"
	}); err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory.Start(ctx.Done())
	cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
	go wait.UntilWithContext(ctx, s.work, time.Second)
	<-ctx.Done()
}

// enqueue adds a parent's key.
func (s *stamper) enqueue(obj any) { // want "stage-watch:handler"
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	s.queue.Add(key) // want "stage-enqueue"
}

// work runs items until the queue shuts down.
func (s *stamper) work(ctx context.Context) {
	for {
		key, shutdown := s.queue.Get() // want "stage-dequeue"
		if shutdown {
			return
		}
		if err := s.sync(ctx, key); err != nil {
			s.queue.AddRateLimited(key) // want "requeue-error"
		} else {
			s.queue.Forget(key)
		}
		s.queue.Done(key)
	}
}

// sync stamps one parent.
func (s *stamper) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	parent, err := s.lister.Namespace(ns).Get(name) // want "reread" "stage-read"
	if err != nil {
		return fmt.Errorf("get %s: %w", key, err)
	}
	if parent.GetLabels()["stamped"] == "true" { // want "drift:compare"
		return nil
	}
	stamped := parent.DeepCopy()
	labels := stamped.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["stamped"] = "true"
	stamped.SetLabels(labels)
	_, err = s.client.Resource(parents).Namespace(ns).Update(ctx, stamped, metav1.UpdateOptions{}) // want "stage-write:update Unstructured" "drift:apply"
	return err
}
