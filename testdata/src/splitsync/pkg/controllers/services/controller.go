// Package services holds the controller of Services, which runs the
// shared work loop with a reconcile function picked by name from a
// registry its package fills at init: a value ctrlcmp does not follow.
package services

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"example.com/fixtures/splitsync/pkg/controllers/util"
)

// want-none "services.Controller/reconcile-entry" "services.Controller/reread" "services.Controller/finalizer-const" "services.Controller/finalizer-add" "services.Controller/finalizer-cleanup" "services.Controller/finalizer-remove" "services.Controller/condition-types" "services.Controller/requeue-error" "services.Controller/requeue-success" "services.Controller/interval-trace" "services.Controller/drift"

// reconcilers are the reconcile functions of the controller's modes.
var reconcilers = map[string]util.ReconcileFunc{}

// lister reads the Services the reconcile functions check.
var lister corelisters.ServiceLister

func init() {
	reconcilers["strict"] = reconcileStrict
}

// Controller checks Services in the mode it is given.
type Controller struct {
	queue workqueue.TypedRateLimitingInterface[string]
	mode  string
}

// New wires the controller to the Service informer.
func New(informer coreinformers.ServiceInformer, mode string) *Controller {
	lister = informer.Lister()
	c := &Controller{
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		mode:  mode,
	}
	_, _ = informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	return c
}

// Run runs the shared work loop with the reconcile function of the
// controller's mode until ctx is done.
func (c *Controller) Run(ctx context.Context, workers int) {
	util.Run(ctx, klog.FromContext(ctx), "services", time.Second, c.queue, workers, 5, reconcilers[c.mode])
}

// reconcileStrict checks that a Service selects some Pods.
func reconcileStrict(_ context.Context, logger klog.Logger, _, namespace, name string) error {
	svc, err := lister.Services(namespace).Get(name)
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(svc.Spec.Selector) == 0 {
		logger.Info("Service selects no Pods", "service", klog.KObj(svc))
	}
	return nil
}
