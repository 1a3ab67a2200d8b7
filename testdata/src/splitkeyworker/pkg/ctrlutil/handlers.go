package ctrlutil

import (
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// informer is what AddDefaultEventHandlers needs of an informer.
type informer interface {
	AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error)
}

// keyFunc turns an object into its queue key.
type keyFunc func(obj any) (cache.ExplicitKey, error)

// AddDefaultEventHandlers queues the key of every object added, updated or
// deleted.
func AddDefaultEventHandlers(inf informer, queue workqueue.TypedRateLimitingInterface[any]) (cache.ResourceEventHandlerRegistration, error) {
	return addKeyedEventHandlers(inf, queue, metaNamespaceKey)
}

func metaNamespaceKey(obj any) (cache.ExplicitKey, error) {
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	return cache.ExplicitKey(key), err
}

func addKeyedEventHandlers(inf informer, queue workqueue.TypedRateLimitingInterface[any], parseKey keyFunc) (cache.ResourceEventHandlerRegistration, error) {
	enqueue := func(obj any) {
		if key, err := parseKey(obj); err == nil {
			queue.Add(key)
		}
	}
	return inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
		DeleteFunc: enqueue,
	})
}
