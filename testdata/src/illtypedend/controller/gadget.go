package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/illtypedend/api/v1"
)

// want-none "GadgetReconciler/finalizer-const" "GadgetReconciler/finalizer-add" "GadgetReconciler/finalizer-cleanup" "GadgetReconciler/finalizer-remove" "GadgetReconciler/condition-types" "GadgetReconciler/requeue-error" "GadgetReconciler/requeue-success" "GadgetReconciler/interval-trace"

// pausedRecheck is how long a paused Gadget waits before it is looked at
// again.
const pausedRecheck = 5 * time.Minute

// GadgetReconciler reconciles Gadgets. A paused Gadget comes back after
// pausedRecheck; otherwise the entry hands back what assemble returns,
// which is not read: the early return is not known to be the steady
// state, nor any failure return the main work's.
type GadgetReconciler struct {
	client.Client
}

// Reconcile holds a paused Gadget back, then assembles it.
func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GadgetReconciler/reconcile-entry"
	var obj v1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "GadgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.Spec.Paused {
		return ctrl.Result{RequeueAfter: pausedRecheck}, nil
	}
	return r.assemble(ctx, &obj)
}

// assemble is the main work; checksumOf is not written yet.
func (r *GadgetReconciler) assemble(ctx context.Context, obj *v1.Gadget) (ctrl.Result, error) { // want "GadgetReconciler/drift:unread"
	obj.Status.Checksum = checksumOf(normalized(obj.Spec))
	if err := r.Status().Update(ctx, obj); err != nil { // want "GadgetReconciler/partial"
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: obj.Spec.Interval.Duration}, nil
}

// normalized is the spec as the checksum reads it; only assemble calls it.
func normalized(spec v1.GadgetSpec) v1.GadgetSpec {
	spec.Paused = false
	return spec
}

// SetupWithManager registers the reconciler for Gadgets.
func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Complete(r)
}
