// Package controller holds the Gauge reconciler.
package controller

import (
	"context"

	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fluxcd/pkg/apis/meta"
	"github.com/fluxcd/pkg/runtime/conditions"
	"github.com/fluxcd/pkg/runtime/jitter"
	"github.com/fluxcd/pkg/runtime/patch"

	gaugev1 "example.com/fixtures/fluxjitter/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "drift"

// GaugeReconciler reconciles a Gauge object.
type GaugeReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *GaugeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&gaugev1.Gauge{}).Complete(r)
}

// Reconcile marks the Gauge ready and comes back after its interval.
func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "reconcile-entry"
	obj := &gaugev1.Gauge{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "requeue-error"
	}

	patcher := patch.NewSerialPatcher(obj, r.Client)
	defer func() {
		if err := patcher.Patch(ctx, obj); err != nil { // want "write-always"
			retErr = kerrors.NewAggregate([]error{retErr, err})
		}
	}()

	conditions.MarkTrue(obj, meta.ReadyCondition, meta.SucceededReason, "measured %s", obj.Spec.Target) // want "condition-type:Ready" "condition-set:Ready"
	return nextPass(obj), nil                                                                           // want "requeue-success" "trace:return"
}

// nextPass is the result of a pass that succeeded: the Gauge's interval,
// jittered, unless it is not positive.
func nextPass(obj *gaugev1.Gauge) ctrl.Result { // want "trace:getter"
	result := ctrl.Result{}
	if every := obj.GetEvery(); every > 0 {
		result.RequeueAfter = every
	}
	return jitter.JitteredRequeueInterval(result) // want "trace:getter-body"
}
