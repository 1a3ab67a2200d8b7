// Package runner runs a handler on the keys of a queue: the handler is set
// through a setter that wraps it in a closure checking that the runner has
// not stopped.
package runner

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

// Runner runs one handler on its queue's keys.
type Runner struct {
	Queue   workqueue.TypedRateLimitingInterface[string]
	stopped bool
	handle  func(ctx context.Context, key string) error
}

// Handle sets the handler.
func (r *Runner) Handle(h func(ctx context.Context, key string) error) {
	r.handle = func(ctx context.Context, key string) error {
		if r.stopped {
			return nil
		}
		return h(ctx, key)
	}
}

// Run takes keys off the queue until it shuts down.
func (r *Runner) Run(ctx context.Context) {
	defer func() { r.stopped = true }()
	for {
		key, quit := r.Queue.Get()
		if quit {
			return
		}
		if err := r.handle(ctx, key); err != nil {
			r.Queue.AddRateLimited(key) // want "Stamp/requeue-error"
		} else {
			r.Queue.Forget(key)
		}
		r.Queue.Done(key)
	}
}
