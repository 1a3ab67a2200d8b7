// Package loop runs a controller that registers with it: the controller
// hands back its queue and its sync function, which the loop keeps in
// fields of its own and works until the queue shuts down.
package loop

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

// Controller is what registers with a loop.
type Controller interface {
	Register() (workqueue.TypedRateLimitingInterface[string], func(context.Context, string) error)
}

// Loop works one registered controller's queue.
type Loop struct {
	queue workqueue.TypedRateLimitingInterface[string]
	sync  func(context.Context, string) error
}

// New registers c.
func New(c Controller) *Loop {
	queue, sync := c.Register()
	return &Loop{queue: queue, sync: sync}
}

// Run works the queue until it shuts down.
func (l *Loop) Run(ctx context.Context) {
	for l.next(ctx) {
	}
}

// next syncs one key; a key whose sync fails comes back rate-limited.
func (l *Loop) next(ctx context.Context) bool {
	key, quit := l.queue.Get()
	if quit {
		return false
	}
	defer l.queue.Done(key)
	if err := l.sync(ctx, key); err != nil {
		l.queue.AddRateLimited(key) // want "ServiceAccountController/requeue-error"
		return true
	}
	l.queue.Forget(key)
	return true
}
