// Package ctrlutil holds the work loop every controller of the agent runs:
// it splits each queued key into namespace and name and hands all three to
// the reconcile function it is given.
package ctrlutil

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// ReconcileFunc reconciles the object that key, namespace and name name.
type ReconcileFunc func(ctx context.Context, key, namespace, name string) error

// Run runs n workers on queue until ctx is done.
func Run(ctx context.Context, name string, period time.Duration, queue workqueue.TypedRateLimitingInterface[any], n, maxRetries int, r ReconcileFunc) {
	defer queue.ShutDown()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wait.UntilWithContext(ctx, func(ctx context.Context) { worker(ctx, queue, maxRetries, r) }, period)
		}()
	}
	klog.InfoS("controller started", "name", name)
	<-ctx.Done()
	wg.Wait()
}

func worker(ctx context.Context, queue workqueue.TypedRateLimitingInterface[any], maxRetries int, r ReconcileFunc) {
	for processNextWorkItem(ctx, queue, maxRetries, r) {
	}
}

func processNextWorkItem(ctx context.Context, queue workqueue.TypedRateLimitingInterface[any], maxRetries int, r ReconcileFunc) bool {
	obj, quit := queue.Get()
	if quit {
		return false
	}
	defer queue.Done(obj)
	handleErr(queue, maxRetries, reconcile(ctx, obj, r), obj)
	return true
}

// reconcile turns a queue item into a key, a namespace and a name.
func reconcile(ctx context.Context, obj any, r ReconcileFunc) error {
	var key, namespace, name string
	if k, ok := obj.(cache.ExplicitKey); ok {
		key = string(k)
	} else {
		k, err := cache.MetaNamespaceKeyFunc(obj)
		if err != nil {
			return err
		}
		key = k
	}
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	return r(ctx, key, namespace, name)
}

// handleErr forgets an item that reconciled or is gone, and retries the
// rest rate-limited until maxRetries.
func handleErr(queue workqueue.TypedRateLimitingInterface[any], maxRetries int, err error, obj any) {
	if err == nil || errors.IsNotFound(err) {
		queue.Forget(obj)
	} else if queue.NumRequeues(obj) < maxRetries {
		queue.AddRateLimited(obj) // want "requeue-error"
	} else {
		queue.Forget(obj)
	}
}
