// Package controller holds a reconciler that adds and removes its
// finalizer through a finalizer object of another library, reached only
// through that library's interface.
package controller

import (
	"context"

	"example.com/fixtures/queuelib/finalize"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// The finalizer object carries the name: the constant is not settled
// until the value is followed from the constructor to the interface's
// receiver.
// want-none "HoldReconciler/finalizer-const"
// want-none "HoldReconciler/condition-types" "HoldReconciler/requeue-success" "HoldReconciler/interval-trace" "HoldReconciler/drift"

// holdFinalizer holds a claim until its volume is released.
const holdFinalizer = "finlib.example.com/hold"

// HoldReconciler holds PersistentVolumeClaims.
type HoldReconciler struct {
	client.Client
	fin    finalize.Finalizer
	labels finalize.Labeler
}

// NewHoldReconciler builds the reconciler with its finalizer object.
func NewHoldReconciler(c client.Client) *HoldReconciler {
	return &HoldReconciler{Client: c, fin: finalize.NewFinalizer(holdFinalizer), labels: finalize.NewLabeler()}
}

// Reconcile holds one claim, or lets it go on deletion.
func (r *HoldReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HoldReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "HoldReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	log.FromContext(ctx).Info("holding", "claim", r.labels.Label(&pvc)) // decoy: an interface of the library handed the object, changing nothing
	if !pvc.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.release(ctx, &pvc)
	}
	r.fin.AddFinalizer(&pvc)                  // want "HoldReconciler/finalizer-add"
	return ctrl.Result{}, r.Update(ctx, &pvc) // want "HoldReconciler/requeue-error" "HoldReconciler/write-always"
}

// release lets the claim go.
func (r *HoldReconciler) release(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error { // want "HoldReconciler/finalizer-cleanup"
	r.fin.RemoveFinalizer(pvc) // want "HoldReconciler/finalizer-remove"
	return r.Update(ctx, pvc)
}

// SetupWithManager registers the reconciler for claims.
func (r *HoldReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Named("hold").Complete(r)
}
