// Package framework is the operator's own controller framework: each
// controller implements Impl, and Builder hands its Process method, as a
// method value through the interface, to a controller whose one worker
// loop calls it from a field.
package framework

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

// Impl is what a controller of the framework implements.
type Impl interface {
	Queue() workqueue.TypedRateLimitingInterface[string]
	Process(ctx context.Context, key string) error
}

// Controller runs one controller's worker.
type Controller struct {
	name  string
	queue workqueue.TypedRateLimitingInterface[string]
	// process is called with each key taken off the queue.
	process func(ctx context.Context, key string) error
}

// newController keeps the process function in the controller.
func newController(name string, queue workqueue.TypedRateLimitingInterface[string], process func(context.Context, string) error) *Controller {
	return &Controller{name: name, queue: queue, process: process}
}

// Builder builds the controller of one implementation.
type Builder struct {
	name string
	impl Impl
}

// NewBuilder starts a builder.
func NewBuilder(name string) *Builder { return &Builder{name: name} }

// For sets the implementation.
func (b *Builder) For(impl Impl) *Builder {
	b.impl = impl
	return b
}

// Complete builds the controller.
func (b *Builder) Complete() *Controller {
	return newController(b.name, b.impl.Queue(), b.impl.Process)
}

// Run works the queue until it shuts down.
func (c *Controller) Run(ctx context.Context) {
	for {
		key, quit := c.queue.Get()
		if quit {
			return
		}
		func() {
			defer c.queue.Done(key)
			if err := c.process(ctx, key); err != nil {
				utilruntime.HandleError(fmt.Errorf("%s: syncing %q: %w", c.name, key, err))
				c.queue.AddRateLimited(key) // want "requeue-error"
				return
			}
			c.queue.Forget(key)
		}()
	}
}
