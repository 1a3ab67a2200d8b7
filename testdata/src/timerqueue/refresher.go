package main

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "ConfigMapRefresher/finalizer-const" "ConfigMapRefresher/finalizer-add" "ConfigMapRefresher/finalizer-cleanup" "ConfigMapRefresher/finalizer-remove" "ConfigMapRefresher/condition-types"
// want-none "ConfigMapRefresher/drift"

// refreshedAt is the annotation the refresher stamps.
const refreshedAt = "timerqueue.example.com/refreshed"

// ConfigMapRefresher stamps every ConfigMap and looks at it again after an
// interval: a delayer built on the queue's Add brings the key back.
type ConfigMapRefresher struct {
	client   kubernetes.Interface
	lister   corelisters.ConfigMapLister
	queue    workqueue.TypedRateLimitingInterface[string]
	later    *delayer
	interval time.Duration
}

// NewConfigMapRefresher returns a refresher fed by the ConfigMap informer.
func NewConfigMapRefresher(client kubernetes.Interface, informer coreinformers.ConfigMapInformer, interval time.Duration) *ConfigMapRefresher {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	c := &ConfigMapRefresher{
		client:   client,
		lister:   informer.Lister(),
		queue:    queue,
		later:    newDelayer(queue.Add),
		interval: interval,
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
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
	c.queue.Forget(key)
	return true
}

// sync stamps one ConfigMap and schedules the next look at it.
func (c *ConfigMapRefresher) sync(ctx context.Context, key string) error { // want "ConfigMapRefresher/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cm, err := c.lister.ConfigMaps(namespace).Get(name) // want "ConfigMapRefresher/reread"
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[refreshedAt] = time.Now().Format(time.RFC3339)
	if _, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "ConfigMapRefresher/write-always" "ConfigMapRefresher/hot-loop"
		return err
	}
	// decoy: a timer whose callback only logs.
	time.AfterFunc(time.Minute, func() { klog.Infof("stamped %s a minute ago", key) })
	c.later.After(key, c.interval) // want "ConfigMapRefresher/requeue-success" "ConfigMapRefresher/trace:return"
	return nil
}
