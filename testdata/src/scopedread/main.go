// Command owner-labeler labels the owners of one resource, read through a
// dynamic informer's lister as unstructured objects. The resource may be
// namespaced or cluster-scoped: the key's namespace says which lister read
// serves it, so the code does not say which one reads the object.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "reread"

var owners = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "owners"}

// labeler keeps a label on every owner.
type labeler struct {
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
	informer := factory.ForResource(owners).Informer()
	l := &labeler{
		client: client,
		lister: dynamiclister.New(informer.GetIndexer(), owners),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: l.enqueue,
	}); err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory.Start(ctx.Done())
	cache.WaitForCacheSync(ctx.Done(), informer.HasSynced)
	go wait.UntilWithContext(ctx, l.work, time.Second)
	<-ctx.Done()
}

// enqueue adds an owner's key.
func (l *labeler) enqueue(obj any) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	l.queue.Add(key)
}

// work runs items until the queue shuts down.
func (l *labeler) work(ctx context.Context) {
	for {
		key, shutdown := l.queue.Get()
		if shutdown {
			return
		}
		if err := l.sync(ctx, key); err != nil {
			l.queue.AddRateLimited(key) // want "requeue-error"
		} else {
			l.queue.Forget(key)
		}
		l.queue.Done(key)
	}
}

// sync labels one owner.
func (l *labeler) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	owner, err := l.get(ns, name)
	if err != nil {
		return err
	}
	if owner.GetLabels()["labeled"] == "true" { // want "drift:compare"
		return nil
	}
	labeled := owner.DeepCopy()
	labels := labeled.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["labeled"] = "true"
	labeled.SetLabels(labels)
	_, err = l.client.Resource(owners).Namespace(ns).Update(ctx, labeled, metav1.UpdateOptions{}) // want "drift:apply"
	return err
}

// get reads an owner from the lister: a cluster-scoped one by its name, a
// namespaced one in its namespace.
func (l *labeler) get(ns, name string) (*unstructured.Unstructured, error) {
	if ns == "" {
		return l.lister.Get(name)
	}
	return l.lister.Namespace(ns).Get(name)
}
