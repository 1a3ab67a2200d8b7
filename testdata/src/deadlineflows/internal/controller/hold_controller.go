package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	claimv1 "example.com/fixtures/deadlineflows/api/v1"
)

// want-none "HoldReconciler/finalizer-const" "HoldReconciler/finalizer-add" "HoldReconciler/finalizer-cleanup" "HoldReconciler/finalizer-remove" "HoldReconciler/condition-types" "HoldReconciler/drift" "HoldReconciler/requeue-success" "HoldReconciler/interval-trace"

// HoldReconciler polls a Claim until it is released, reading its status
// through the Claim's getter: whether the poll is the steady state's
// interval or a wait while the Claim is held, the Claim's state decides.
type HoldReconciler struct{ client.Client }

// Reconcile polls a held Claim every minute and lets a released one be.
func (r *HoldReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HoldReconciler/reconcile-entry"
	obj := &claimv1.Claim{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "HoldReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "HoldReconciler/requeue-error"
	}
	if obj.GetStatus().ReleasedAt.IsZero() {
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	} else {
		return ctrl.Result{}, nil
	}
}

// SetupWithManager registers the reconciler for Claims.
func (r *HoldReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("hold").For(&claimv1.Claim{}).Complete(r)
}
