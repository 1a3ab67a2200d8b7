// Package queueworker holds a work loop that any controller can run: it
// hands each key to the sync function it is given, through a closure that
// handles one item.
package queueworker

import (
	"context"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
)

// SyncFunc syncs the object a key names.
type SyncFunc func(ctx context.Context, key string) error

// Run syncs the keys of queue with sync until the queue shuts down.
func Run(ctx context.Context, queue workqueue.TypedRateLimitingInterface[string], sync SyncFunc) {
	for processNext(ctx, queue, sync) {
	}
}

// processNext syncs one key; a key whose sync fails comes back
// rate-limited.
func processNext(ctx context.Context, queue workqueue.TypedRateLimitingInterface[string], syncer SyncFunc) bool {
	processItem := func(key string) error {
		defer queue.Done(key)
		if err := syncer(ctx, key); err != nil {
			queue.AddRateLimited(key) // want "requeue-error"
			return err
		}
		queue.Forget(key)
		return nil
	}
	key, quit := queue.Get()
	if quit {
		return false
	}
	if err := processItem(key); err != nil {
		utilruntime.HandleError(err)
	}
	return true
}
