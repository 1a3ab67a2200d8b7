package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MuReconciler/finalizer-const" "MuReconciler/finalizer-add" "MuReconciler/finalizer-cleanup" "MuReconciler/finalizer-remove" "MuReconciler/condition-types" "MuReconciler/requeue-success" "MuReconciler/requeue-error" "MuReconciler/interval-trace" "MuReconciler/drift"

// stepResult is what a step of MuReconciler hands back.
type stepResult struct {
	RequeueAfter time.Duration
}

// MuReconciler runs a step it is given on ReplicationControllers.
type MuReconciler struct {
	client.Client
	// step is the work of a pass; set by whoever builds the reconciler.
	step func(ctx context.Context, rc *corev1.ReplicationController) (*stepResult, error)
}

// Reconcile builds its result field by field from the step's: what
// result.RequeueAfter = res.RequeueAfter asks for is what the step, a
// function value the engine does not follow, hands back. Its requeues are
// not settled, as they are when the literal copies the field
// (ctrl.Result{RequeueAfter: res.RequeueAfter}); the return is not a
// success requeue of its own.
func (r *MuReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MuReconciler/reconcile-entry"
	var rc corev1.ReplicationController
	if err := r.Get(ctx, req.NamespacedName, &rc); err != nil { // want "MuReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := r.step(ctx, &rc)
	if err != nil {
		return ctrl.Result{}, err
	}
	result := ctrl.Result{}
	result.RequeueAfter = res.RequeueAfter
	return result, nil
}

// SetupWithManager registers the reconciler for ReplicationControllers.
func (r *MuReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ReplicationController{}).Complete(r)
}
