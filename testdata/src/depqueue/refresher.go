package main

import (
	"context"
	"time"

	"example.com/fixtures/queuelib/requeue"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "ConfigMapRefresher/finalizer-const" "ConfigMapRefresher/finalizer-add" "ConfigMapRefresher/finalizer-cleanup" "ConfigMapRefresher/finalizer-remove" "ConfigMapRefresher/condition-types"
// want-none "ConfigMapRefresher/drift"

// refreshedAt is the annotation the refresher stamps.
const refreshedAt = "depqueue.example.com/refreshed"

// ConfigMapRefresher stamps every ConfigMap and looks at it again after an
// interval, through the helper module's requeue.
type ConfigMapRefresher struct {
	client   kubernetes.Interface
	lister   corelisters.ConfigMapLister
	queue    requeue.Queue
	interval time.Duration
}

// NewConfigMapRefresher returns a refresher fed by the ConfigMap informer.
func NewConfigMapRefresher(client kubernetes.Interface, informer coreinformers.ConfigMapInformer, interval time.Duration) *ConfigMapRefresher {
	c := &ConfigMapRefresher{
		client:   client,
		lister:   informer.Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
		interval: interval,
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				c.queue.Add(ref)
			}
		},
	})
	return c
}

// Run runs one worker until ctx is done.
func (c *ConfigMapRefresher) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func (c *ConfigMapRefresher) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *ConfigMapRefresher) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "ConfigMapRefresher/requeue-error"
		return true
	}
	requeue.Later(c.queue, key, c.interval) // want "ConfigMapRefresher/requeue-success" "ConfigMapRefresher/trace:return"
	return true
}

// sync stamps one ConfigMap.
func (c *ConfigMapRefresher) sync(ctx context.Context, key cache.ObjectName) error { // want "ConfigMapRefresher/reconcile-entry"
	cm, err := c.lister.ConfigMaps(key.Namespace).Get(key.Name) // want "ConfigMapRefresher/reread"
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[refreshedAt] = time.Now().Format(time.RFC3339)
	_, err = c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "ConfigMapRefresher/write-always" "ConfigMapRefresher/hot-loop"
	return err
}
