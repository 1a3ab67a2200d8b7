// Package workerlib is a small controller library (a dependency of the
// depworker fixture): a controller built
// with a handler function, which its worker runs on every key it takes off
// its workqueue.
package workerlib

import (
	"context"
	"time"

	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// HandlerFunc handles one key; a delay it hands back brings the key back
// after it.
type HandlerFunc func(key any) (requeueAfter *time.Duration, err error)

// Controller runs a handler on the keys of its queue.
type Controller struct {
	name    string
	queue   workqueue.TypedRateLimitingInterface[any]
	handle  func(ctx context.Context, key any) (*time.Duration, error)
	workers int
}

// New makes a controller with one worker.
func New(name string) *Controller {
	return &Controller{name: name, workers: 1,
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]())}
}

// WithHandlerFunc sets the handler the worker runs.
func (c *Controller) WithHandlerFunc(h HandlerFunc) *Controller {
	c.handle = func(ctx context.Context, key any) (*time.Duration, error) {
		if ctx.Err() != nil {
			return nil, nil
		}
		return h(key)
	}
	return c
}

// EventHandler queues the key of every object added or updated.
func (c *Controller) EventHandler() cache.ResourceEventHandlerFuncs {
	enqueue := func(obj any) {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			c.queue.Add(key)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) }}
}

// Run runs the workers until ctx is done.
func (c *Controller) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	for i := 0; i < c.workers; i++ {
		go func() {
			for c.next(ctx) {
			}
		}()
	}
	<-ctx.Done()
}

func (c *Controller) next(ctx context.Context) bool {
	item, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(item)
	after, err := c.handle(ctx, item)
	if err != nil {
		c.queue.AddRateLimited(item)
		return true
	}
	c.queue.Forget(item)
	if after != nil {
		c.queue.AddAfter(item, *after)
	}
	return true
}
