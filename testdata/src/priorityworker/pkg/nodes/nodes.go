// Package nodes checks Nodes. Its worker puts a key back on the priority
// queue with options a helper builds from the sync's outcome: which of
// them says rate-limited, or a delay, is not in the call.
package nodes

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
)

// want-none "NodeChecker/finalizer-const" "NodeChecker/finalizer-add" "NodeChecker/finalizer-cleanup" "NodeChecker/finalizer-remove" "NodeChecker/condition-types" "NodeChecker/drift"
// want-none "NodeChecker/requeue-error" "NodeChecker/requeue-success" "NodeChecker/interval-trace"

// notReadyWait is how long a Node that is not ready waits for the next look.
const notReadyWait = 30 * time.Second

// NodeChecker follows Nodes until they are ready.
type NodeChecker struct {
	lister corelisters.NodeLister
	queue  priorityqueue.PriorityQueue[string]
}

// New builds the checker, fed by a Node informer.
func New(informer coreinformers.NodeInformer) *NodeChecker {
	c := &NodeChecker{
		lister: informer.Lister(),
		queue:  priorityqueue.New[string]("nodes"),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
	})
	return c
}

func (c *NodeChecker) enqueue(obj interface{}) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// Run works the queue until ctx is done.
func (c *NodeChecker) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(context.Context) {
		for c.processNext() {
		}
	}, time.Second)
	<-ctx.Done()
}

// processNext takes one key off the queue, syncs it and puts it back as
// the outcome says.
func (c *NodeChecker) processNext() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	ready, err := c.sync(key)
	if ready && err == nil {
		c.queue.Forget(key)
		return true
	}
	c.queue.AddWithOpts(requeueOptions(ready, err), key)
	return true
}

// requeueOptions puts a failed key back rate-limited, and a key whose Node
// is not ready yet back after a while.
func requeueOptions(ready bool, err error) priorityqueue.AddOpts {
	if err != nil {
		return priorityqueue.AddOpts{RateLimited: true}
	}
	return priorityqueue.AddOpts{After: notReadyWait}
}

// sync looks at the Node of one key.
func (c *NodeChecker) sync(key string) (bool, error) { // want "NodeChecker/reconcile-entry"
	node, err := c.lister.Get(key) // want "NodeChecker/reread"
	if errors.IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	for _, cond := range node.Status.Conditions {
		if cond.Type == "Ready" {
			return cond.Status == "True", nil
		}
	}
	return false, nil
}
