package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// portsReady is the condition the controller keeps on each Service.
const portsReady = "PortsReady" // want "condition-type:PortsReady"

// controller keeps each Service's PortsReady condition.
type controller struct {
	client     kubernetes.Interface
	services   cache.Indexer
	configMaps corelisters.ConfigMapLister
	synced     []cache.InformerSynced
	queue      workqueue.TypedRateLimitingInterface[string]
	// audits is another controller's queue: a Service checked is audited
	// a minute later, which is no requeue of this one's.
	audits workqueue.TypedDelayingInterface[string]
}

func newController(client kubernetes.Interface, services coreinformers.ServiceInformer, configMaps coreinformers.ConfigMapInformer) *controller {
	c := &controller{
		client:     client,
		services:   services.Informer().GetIndexer(),
		configMaps: configMaps.Lister(),
		synced:     []cache.InformerSynced{services.Informer().HasSynced, configMaps.Informer().HasSynced},
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		audits:     workqueue.NewTypedDelayingQueue[string](),
	}
	_, _ = services.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueue,
		UpdateFunc: func(_, obj interface{}) { c.enqueue(obj) },
	})
	return c
}

func (c *controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.queue.Add(key)
}

func (c *controller) run(ctx context.Context, workers int) {
	defer c.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, c.work, time.Second)
	}
	<-ctx.Done()
}

func (c *controller) work(ctx context.Context) {
	for {
		key, quit := c.queue.Get()
		if quit {
			return
		}
		if err := c.sync(ctx, key); err != nil {
			utilruntime.HandleError(err)
			c.queue.AddRateLimited(key) // want "requeue-error"
		} else {
			c.queue.Forget(key)
		}
		c.queue.Done(key)
	}
}

// byKey hands back the object a cache holds under key, or the zero T
// (nil) when it holds none.
func byKey[T runtime.Object](indexer cache.Indexer, key string) (T, error) {
	var none T
	obj, exists, err := indexer.GetByKey(key)
	if err != nil || !exists {
		return none, err
	}
	return obj.(T), nil
}

// deleting reports whether an object is on its way out.
func deleting(o metav1.Object) bool {
	return o.GetDeletionTimestamp() != nil
}

// sync sets the Service's PortsReady condition from its ports ConfigMap.
func (c *controller) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	svc, err := byKey[*corev1.Service](c.services, key) // want "reread"
	if err != nil {
		return err
	}
	if svc == nil {
		return nil
	}
	if deleting(svc) {
		return nil
	}
	cm, err := c.configMaps.ConfigMaps(svc.Namespace).Get(svc.Name + "-ports")
	if err != nil && !errors.IsNotFound(err) {
		return err
	}
	if cm != nil && deleting(cm) {
		return nil
	}
	status := metav1.ConditionFalse
	if cm != nil {
		status = metav1.ConditionTrue
	}
	svc = svc.DeepCopy()
	meta.SetStatusCondition(&svc.Status.Conditions, metav1.Condition{Type: portsReady, Status: status, Reason: "Checked"}) // want "condition-set:PortsReady"
	_, err = c.client.CoreV1().Services(svc.Namespace).UpdateStatus(ctx, svc, metav1.UpdateOptions{})                      // want "write-always"
	if err == nil {
		c.audits.AddAfter(key, time.Minute)
	}
	return err
}
