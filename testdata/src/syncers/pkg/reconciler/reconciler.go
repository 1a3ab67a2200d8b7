// Package reconciler holds the work loop that every operator of the tree
// shares through an interface: each hands it itself as the Syncer.
package reconciler

import (
	"context"

	"k8s.io/client-go/util/workqueue"
)

// Syncer syncs one key.
type Syncer interface {
	Sync(ctx context.Context, key string) error
}

// Reconciler runs a Syncer over its queue.
type Reconciler struct {
	Queue  workqueue.TypedRateLimitingInterface[string]
	syncer Syncer
}

// New is a Reconciler of s.
func New(s Syncer) *Reconciler {
	return &Reconciler{
		Queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		syncer: s,
	}
}

// Run syncs keys until the queue shuts down.
func (r *Reconciler) Run(ctx context.Context) {
	for r.processNext(ctx) {
	}
}

func (r *Reconciler) processNext(ctx context.Context) bool {
	key, quit := r.Queue.Get()
	if quit {
		return false
	}
	defer r.Queue.Done(key)
	if err := r.syncer.Sync(ctx, key); err != nil {
		r.Queue.AddRateLimited(key) // want "requeue-error"
		return true
	}
	r.Queue.Forget(key)
	return true
}
