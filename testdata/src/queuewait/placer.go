package main

import (
	"context"
	"time"

	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "PodPlacer/finalizer-const" "PodPlacer/finalizer-add" "PodPlacer/finalizer-cleanup" "PodPlacer/finalizer-remove" "PodPlacer/condition-types" "PodPlacer/drift"
// want-none "PodPlacer/requeue-success" "PodPlacer/interval-trace"

// nodeWait is how long a Pod waits for its node to be ready.
const nodeWait = 30 * time.Second

// PodPlacer looks at a Pod again later only through a helper that adds it
// after a delay, called where the Pod's node is not ready or has no room:
// whether those are waits or retries, and whether any is the steady
// state's interval, the calls do not say.
type PodPlacer struct {
	pods  corelisters.PodLister
	nodes corelisters.NodeLister
	queue workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *PodPlacer) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *PodPlacer) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "PodPlacer/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// checkLater adds the key back after d.
func (c *PodPlacer) checkLater(key cache.ObjectName, d time.Duration) {
	c.queue.AddAfter(key, d)
}

func (c *PodPlacer) sync(ctx context.Context, key cache.ObjectName) error { // want "PodPlacer/reconcile-entry"
	pod, err := c.pods.Pods(key.Namespace).Get(key.Name) // want "PodPlacer/reread"
	if err != nil {
		return err
	}
	node, err := c.nodes.Get(pod.Spec.NodeName)
	if err != nil {
		return err
	}
	if node.Spec.Unschedulable {
		c.checkLater(key, nodeWait)
		return nil
	}
	if len(node.Status.Allocatable) == 0 {
		c.checkLater(key, 2*nodeWait)
	}
	return nil
}
