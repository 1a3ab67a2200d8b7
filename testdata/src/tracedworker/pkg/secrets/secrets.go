// Package secrets checks Secrets. Its worker hands each key to a tracer
// shared by the package (the same method the ConfigMap worker calls) and
// then to the sync function.
package secrets

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/tracedworker/pkg/trace"
)

// want-none "SecretController/finalizer-const" "SecretController/finalizer-add" "SecretController/finalizer-cleanup" "SecretController/finalizer-remove" "SecretController/condition-types" "SecretController/requeue-success" "SecretController/interval-trace" "SecretController/drift"

var workqueueTracer = &trace.Tracer{}

// SecretController checks that every Secret has data.
type SecretController struct {
	indexer cache.Indexer
	queue   workqueue.TypedRateLimitingInterface[string]
}

// New builds the controller, fed by a Secret informer.
func New(informer coreinformers.SecretInformer) *SecretController {
	c := &SecretController{
		indexer: informer.Informer().GetIndexer(),
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
	})
	return c
}

func (c *SecretController) enqueue(obj interface{}) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// Run works the queue until ctx is done.
func (c *SecretController) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(context.Context) {
		for c.Execute() {
		}
	}, time.Second)
	<-ctx.Done()
}

// Execute takes one key off the queue, traces it and syncs it.
func (c *SecretController) Execute() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	workqueueTracer.StartTrace(key, "secrets")
	defer workqueueTracer.StopTrace(key)
	defer c.queue.Done(key)
	if err := c.execute(key); err != nil {
		c.queue.AddRateLimited(key) // want "SecretController/requeue-error"
	} else {
		c.queue.Forget(key)
	}
	return true
}

// execute checks the Secret of one key, read from the informer's indexer.
func (c *SecretController) execute(key string) error { // want "SecretController/reconcile-entry"
	obj, exists, err := c.indexer.GetByKey(key) // want "SecretController/reread"
	if err != nil {
		return err
	}
	if !exists {
		return nil
	}
	secret := obj.(*corev1.Secret)
	if len(secret.Data) == 0 {
		return fmt.Errorf("secret %s has no data", key)
	}
	return nil
}
