// Package worker holds the work loop every controller of the operator
// shares: each hands it its own queue and sync function.
package worker

import (
	"context"
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// RunWorker syncs the keys of queue with syncHandler until the queue shuts
// down; a key whose sync fails comes back rate-limited.
func RunWorker(ctx context.Context, queue workqueue.TypedRateLimitingInterface[string], kind string, syncHandler func(context.Context, string) error) {
	logger := klog.FromContext(ctx).WithValues("kind", kind)
	for {
		key, quit := queue.Get()
		if quit {
			return
		}
		err := syncHandler(ctx, key)
		if err == nil {
			queue.Forget(key)
			queue.Done(key)
			continue
		}
		utilruntime.HandleError(fmt.Errorf("syncing %s %q: %w", kind, key, err))
		logger.V(2).Info("requeuing after a failed sync", "key", key)
		queue.AddRateLimited(key) // want "ConfigMapController/requeue-error" "SecretController/requeue-error"
		queue.Done(key)
	}
}
