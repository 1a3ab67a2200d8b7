package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "AccountMarker/finalizer-const" "AccountMarker/finalizer-add" "AccountMarker/finalizer-cleanup" "AccountMarker/finalizer-remove" "AccountMarker/condition-types"
// want-none "AccountMarker/drift"

// ownerConfig is the ConfigMap that names the owner to stamp.
const ownerConfig = "service-owner"

// waitForOwner is how long the marker waits for the owner's ConfigMap: a
// variable that tests may shorten, never written by the controller.
var waitForOwner = 30 * time.Second // want "AccountMarker/trace:constant"

// AccountMarker's worker takes one key off the queue per call, reads the
// ServiceAccount itself and hands the object, not the key, to a handler, which
// requeues the key on the queue it was given.
type AccountMarker struct {
	lister  corelisters.ServiceAccountLister
	queue   workqueue.TypedRateLimitingInterface[string]
	handler accountHandler
}

// accountHandler does the work on one ServiceAccount.
type accountHandler interface {
	Handle(ctx context.Context, sa *corev1.ServiceAccount)
}

// NewAccountMarker returns a marker fed by the ServiceAccount informer; readOnly
// markers only forget what they are handed.
func NewAccountMarker(accounts coreinformers.ServiceAccountInformer, configs coreinformers.ConfigMapInformer, readOnly bool) *AccountMarker {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())
	var handler accountHandler = &forgetHandler{queue: queue}
	if !readOnly {
		handler = &stampHandler{configs: configs.Lister(), queue: queue, later: newDelayer(queue.Add)}
	}
	c := &AccountMarker{lister: accounts.Lister(), queue: queue, handler: handler}
	accounts.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	return c
}

// Run runs one worker until ctx is done.
func (c *AccountMarker) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.processNext, 0)
	<-ctx.Done()
}

// processNext handles one key: wait.UntilWithContext calls it again and
// again. The context it hands on logs the key; the handler is handed the
// ServiceAccount.
func (c *AccountMarker) processNext(ctx context.Context) { // want "AccountMarker/reconcile-entry"
	key, quit := c.queue.Get()
	if quit {
		return
	}
	defer c.queue.Done(key)
	ctx = klog.NewContext(ctx, klog.LoggerWithValues(klog.FromContext(ctx), "serviceaccount", key))
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		c.queue.Forget(key)
		return
	}
	sa, err := c.lister.ServiceAccounts(namespace).Get(name) // want "AccountMarker/reread"
	if err != nil {
		if !apierrors.IsNotFound(err) {
			c.queue.AddRateLimited(key)
		}
		return
	}
	c.handler.Handle(ctx, sa)
}

// stampHandler waits for the ConfigMap of a ServiceAccount's namespace to
// name its owner.
type stampHandler struct {
	configs corelisters.ConfigMapLister
	queue   workqueue.TypedRateLimitingInterface[string]
	later   *delayer
}

// Handle looks for sa's owner and forgets its failures, or requeues it
// when reading the ConfigMap or naming the owner fails.
func (h *stampHandler) Handle(ctx context.Context, sa *corev1.ServiceAccount) {
	key := sa.Namespace + "/" + sa.Name
	cm, err := h.configs.ConfigMaps(sa.Namespace).Get(ownerConfig)
	if err != nil {
		h.queue.AddRateLimited(key)
		return
	}
	if err := h.await(ctx, cm, key); err != nil {
		h.queue.AddRateLimited(key) // want "AccountMarker/requeue-error"
		return
	}
	h.queue.Forget(key)
}

// await logs the owner's name, once the ConfigMap names one; until then it
// looks again after a while.
func (h *stampHandler) await(ctx context.Context, cm *corev1.ConfigMap, key string) error {
	owner := cm.Data["owner"]
	if owner == "" {
		h.later.After(key, waitForOwner) // want "AccountMarker/requeue-success" "AccountMarker/trace:return"
		return nil
	}
	if strings.ContainsAny(owner, "/ ") {
		return fmt.Errorf("owner %q of %s is no name", owner, key)
	}
	klog.FromContext(ctx).Info("owned", "serviceaccount", key, "owner", owner)
	return nil
}

// forgetHandler marks nothing.
type forgetHandler struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

// Handle forgets the ServiceAccount's failures.
func (h *forgetHandler) Handle(ctx context.Context, sa *corev1.ServiceAccount) {
	h.queue.Forget(sa.Namespace + "/" + sa.Name)
}
