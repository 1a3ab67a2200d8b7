// Package util holds the work loop every controller of the operator runs
// its queue with: each hands it its queue and its own reconcile function.
package util

import (
	"context"
	"fmt"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// ReconcileFunc reconciles the object a key names; namespace and name are
// the key's parts.
type ReconcileFunc func(ctx context.Context, logger klog.Logger, key, namespace, name string) error

// Run starts workers that reconcile the items of queue with r, each worker
// restarted every period, until ctx is done. An item whose reconcile fails
// comes back rate-limited, up to maxRetries times.
func Run[T comparable](ctx context.Context, logger klog.Logger, name string, period time.Duration, queue workqueue.TypedRateLimitingInterface[T], workers, maxRetries int, r ReconcileFunc) {
	defer utilruntime.HandleCrash()
	defer queue.ShutDown()
	logger = logger.WithValues("controller", name)
	logger.Info("Starting controller", "workers", workers)
	worker := func(ctx context.Context) {
		for processNextWorkItem(ctx, logger, queue, maxRetries, r) {
		}
	}
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, worker, period)
	}
	<-ctx.Done()
	logger.Info("Shutting down controller")
}

// Options configure a controller's run of the loop.
type Options struct {
	Name       string
	Workers    int
	MaxRetries int
	Reconcile  ReconcileFunc
}

// RunWithOptions runs the loop as Run does, configured by opts, each
// worker restarted every second.
func RunWithOptions[T comparable](ctx context.Context, queue workqueue.TypedRateLimitingInterface[T], opts Options) {
	Run(ctx, klog.FromContext(ctx), opts.Name, time.Second, queue, opts.Workers, opts.MaxRetries, opts.Reconcile)
}

// processNextWorkItem reconciles one item of the queue; it reports false
// when the queue shuts down.
func processNextWorkItem[T comparable](ctx context.Context, logger klog.Logger, queue workqueue.TypedRateLimitingInterface[T], maxRetries int, r ReconcileFunc) bool {
	item, quit := queue.Get()
	if quit {
		return false
	}
	defer queue.Done(item)
	key := fmt.Sprint(item)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("invalid key %q: %w", key, err))
		queue.Forget(item)
		return true
	}
	start := time.Now()
	err = r(ctx, logger, key, namespace, name)
	logger.V(4).Info("Finished syncing", "key", key, "duration", time.Since(start))
	handleErr(logger, queue, item, err, maxRetries)
	return true
}

// handleErr forgets an item that was reconciled, and brings back one whose
// reconcile failed, until it has failed maxRetries times.
func handleErr[T comparable](logger klog.Logger, queue workqueue.TypedRateLimitingInterface[T], item T, err error, maxRetries int) {
	if err == nil {
		queue.Forget(item)
		return
	}
	if queue.NumRequeues(item) < maxRetries {
		logger.V(2).Info("Error syncing, requeuing", "item", item, "err", err)
		queue.AddRateLimited(item) // want "requeue-error"
		return
	}
	queue.Forget(item)
	utilruntime.HandleError(fmt.Errorf("dropping %v out of the queue: %w", item, err))
}

// KeyOnly adapts a sync function that takes the whole key to the loop.
func KeyOnly(sync func(ctx context.Context, key string) error) ReconcileFunc {
	return func(ctx context.Context, _ klog.Logger, key, _, _ string) error {
		return sync(ctx, key)
	}
}
