package main

import (
	"context"
	"time"

	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "NodeRechecker/finalizer-const" "NodeRechecker/finalizer-add" "NodeRechecker/finalizer-cleanup" "NodeRechecker/finalizer-remove" "NodeRechecker/condition-types" "NodeRechecker/drift"

// recheckAnnotation, on a Node, asks for a look again after a duration.
const recheckAnnotation = "example.com/recheck-after"

// NodeRechecker looks at a Node again after the duration its annotation
// asks for, through a helper that adds the key after a delay: the test
// around the helper's call only asks whether there is a delay, so the
// helper's add is the interval.
type NodeRechecker struct {
	nodes corelisters.NodeLister
	queue workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *NodeRechecker) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *NodeRechecker) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "NodeRechecker/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// later adds the key back after d.
func (c *NodeRechecker) later(key cache.ObjectName, d time.Duration) {
	c.queue.AddAfter(key, d) // want "NodeRechecker/requeue-success" "NodeRechecker/trace:return"
}

func (c *NodeRechecker) sync(ctx context.Context, key cache.ObjectName) error { // want "NodeRechecker/reconcile-entry"
	node, err := c.nodes.Get(key.Name) // want "NodeRechecker/reread"
	if err != nil {
		return err
	}
	d, err := time.ParseDuration(node.Annotations[recheckAnnotation]) // want "NodeRechecker/trace:computed"
	if err != nil {
		return nil // no recheck asked for
	}
	if d > 0 {
		c.later(key, d)
	}
	return nil
}
