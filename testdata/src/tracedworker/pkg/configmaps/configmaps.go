// Package configmaps checks ConfigMaps. Its worker hands each key to the
// tracer it holds before it hands it to the sync function, whose error
// decides whether the key comes back.
package configmaps

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/tracedworker/pkg/trace"
)

// want-none "ConfigMapController/finalizer-const" "ConfigMapController/finalizer-add" "ConfigMapController/finalizer-cleanup" "ConfigMapController/finalizer-remove" "ConfigMapController/condition-types" "ConfigMapController/requeue-success" "ConfigMapController/interval-trace" "ConfigMapController/drift"

// ConfigMapController checks that every ConfigMap is marked checked.
type ConfigMapController struct {
	lister corelisters.ConfigMapLister
	queue  workqueue.TypedRateLimitingInterface[string]
	tracer *trace.Tracer
}

// New builds the controller, fed by a ConfigMap informer.
func New(informer coreinformers.ConfigMapInformer) *ConfigMapController {
	c := &ConfigMapController{
		lister: informer.Lister(),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		tracer: &trace.Tracer{},
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
	})
	return c
}

func (c *ConfigMapController) enqueue(obj interface{}) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// Run works the queue until ctx is done.
func (c *ConfigMapController) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(context.Context) {
		for c.processNext() {
		}
	}, time.Second)
	<-ctx.Done()
}

// processNext takes one key off the queue, traces it and syncs it.
func (c *ConfigMapController) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	c.tracer.StartTrace(key, "configmaps")
	defer c.tracer.StopTrace(key)
	defer c.queue.Done(key)
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key) // want "ConfigMapController/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync checks the ConfigMap of one key.
func (c *ConfigMapController) sync(key string) error { // want "ConfigMapController/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := c.lister.ConfigMaps(namespace).Get(name) // want "ConfigMapController/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, ok := cm.Data["checked"]; !ok {
		return fmt.Errorf("configmap %s is not checked yet", key)
	}
	return nil
}
