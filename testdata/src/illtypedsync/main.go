// Command stamper stamps ConfigMaps; its sync function holds one type
// error (a helper it calls is not written yet), unrelated to the lister
// read in the same body.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// stampAnnotation records a ConfigMap's stamp.
const stampAnnotation = "stamp.example.com/value"

// Controller stamps ConfigMaps.
type Controller struct {
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
	queue  workqueue.TypedRateLimitingInterface[string]
}

// runWorker syncs keys until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for {
		key, quit := c.queue.Get()
		if quit {
			return
		}
		if err := c.syncHandler(ctx, key); err != nil {
			utilruntime.HandleError(fmt.Errorf("syncing %q: %w", key, err))
			c.queue.AddRateLimited(key) // want "requeue-error"
		} else {
			c.queue.Forget(key)
		}
		c.queue.Done(key)
	}
}

// syncHandler stamps one ConfigMap.
func (c *Controller) syncHandler(ctx context.Context, key string) error { // want "reconcile-entry" "drift:unread"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := c.lister.ConfigMaps(namespace).Get(name) // want "reread" "partial"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	cm.Annotations = map[string]string{stampAnnotation: stampOf(cm)}
	_, err = c.client.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "partial"
	return err
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	informer := factory.Core().V1().ConfigMaps()
	c := &Controller{client: client, lister: informer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	_, _ = informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	factory.Start(ctx.Done())
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
	c.queue.ShutDown()
}
