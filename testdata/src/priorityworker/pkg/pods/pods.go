// Package pods waits for Pods to be scheduled. Its worker takes each key
// off a priority queue with its priority and, when the sync fails, puts it
// back rate-limited at the same priority; the sync puts a key back after a
// delay while its Pod waits for a node.
package pods

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

// want-none "PodWatcher/finalizer-const" "PodWatcher/finalizer-add" "PodWatcher/finalizer-cleanup" "PodWatcher/finalizer-remove" "PodWatcher/condition-types" "PodWatcher/drift"

// recheckAfter is how long a Pod with no node waits for the next look.
const recheckAfter = 20 * time.Second // want "PodWatcher/trace:constant"

// PodWatcher follows Pods until a node is named for them.
type PodWatcher struct {
	lister corelisters.PodLister
	queue  priorityqueue.PriorityQueue[string]
}

// New builds the watcher, fed by a Pod informer.
func New(informer coreinformers.PodInformer) *PodWatcher {
	w := &PodWatcher{
		lister: informer.Lister(),
		queue:  priorityqueue.New[string]("pods"),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: w.enqueue,
	})
	return w
}

func (w *PodWatcher) enqueue(obj interface{}) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		w.queue.Add(key)
	}
}

// Run works the queue until ctx is done.
func (w *PodWatcher) Run(ctx context.Context) {
	defer w.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(context.Context) {
		for w.processNext() {
		}
	}, time.Second)
	<-ctx.Done()
}

// processNext takes one key off the queue and syncs it.
func (w *PodWatcher) processNext() bool {
	key, priority, quit := w.queue.GetWithPriority()
	if quit {
		return false
	}
	defer w.queue.Done(key)
	if err := w.sync(key); err != nil {
		w.queue.AddWithOpts(priorityqueue.AddOpts{Priority: &priority, RateLimited: true}, key) // want "PodWatcher/requeue-error"
		return true
	}
	w.queue.Forget(key)
	return true
}

// sync looks at the Pod of one key.
func (w *PodWatcher) sync(key string) error { // want "PodWatcher/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	pod, err := w.lister.Pods(namespace).Get(name) // want "PodWatcher/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if pod.Spec.NodeName == "" {
		w.queue.AddWithOpts(priorityqueue.AddOpts{After: recheckAfter}, key) // want "PodWatcher/requeue-success" "PodWatcher/trace:return"
	}
	return nil
}
