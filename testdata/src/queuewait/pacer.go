package main

import (
	"context"
	"time"

	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "ConfigMapPacer/finalizer-const" "ConfigMapPacer/finalizer-add" "ConfigMapPacer/finalizer-cleanup" "ConfigMapPacer/finalizer-remove" "ConfigMapPacer/condition-types" "ConfigMapPacer/drift"
// want-none "ServicePacer/finalizer-const" "ServicePacer/finalizer-add" "ServicePacer/finalizer-cleanup" "ServicePacer/finalizer-remove" "ServicePacer/condition-types" "ServicePacer/drift"
// want-none "ServicePacer/requeue-success" "ServicePacer/interval-trace"

const (
	fastPace = 10 * time.Second
	slowPace = 10 * time.Minute // want "ConfigMapPacer/trace:constant"
)

// ConfigMapPacer looks at a ConfigMap again soon while it asks to be
// hurried, and at its slow pace otherwise: the slow pace, after the early
// special case, is the steady state's interval.
type ConfigMapPacer struct {
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *ConfigMapPacer) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *ConfigMapPacer) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "ConfigMapPacer/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ConfigMapPacer) sync(ctx context.Context, key cache.ObjectName) error { // want "ConfigMapPacer/reconcile-entry"
	cm, err := c.configMaps.ConfigMaps(key.Namespace).Get(key.Name) // want "ConfigMapPacer/reread"
	if err != nil {
		return err
	}
	if cm.Data["hurry"] == "true" {
		c.queue.AddAfter(key, fastPace)
		return nil
	}
	c.queue.AddAfter(key, slowPace) // want "ConfigMapPacer/requeue-success" "ConfigMapPacer/trace:return"
	return nil
}

// ServicePacer looks at a Service again at a pace its type chooses: the
// two re-adds are cases of one switch, and neither is the steady state's
// more than the other.
type ServicePacer struct {
	services corelisters.ServiceLister
	queue    workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *ServicePacer) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *ServicePacer) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "ServicePacer/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ServicePacer) sync(ctx context.Context, key cache.ObjectName) error { // want "ServicePacer/reconcile-entry"
	svc, err := c.services.Services(key.Namespace).Get(key.Name) // want "ServicePacer/reread"
	if err != nil {
		return err
	}
	switch svc.Spec.Type {
	case "LoadBalancer":
		c.queue.AddAfter(key, fastPace)
	default:
		c.queue.AddAfter(key, slowPace)
	}
	return nil
}
