package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "ClaimReconciler/condition-types" "ClaimReconciler/requeue-success" "ClaimReconciler/interval-trace" "ClaimReconciler/drift"

const claimFinalizer = "example.com/claim" // want "ClaimReconciler/finalizer-const"

// legacyClaimFinalizer is the name an older version added: dropped on
// deletion beside the current one, never added.
const legacyClaimFinalizer = "claim"

// ClaimReconciler holds each PersistentVolumeClaim with a finalizer and
// releases it on deletion, dropping an older version's finalizer first.
type ClaimReconciler struct {
	base
}

// Reconcile hands the pass to the base.
func (r *ClaimReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ClaimReconciler/reconcile-entry"
	return r.reconcile(ctx, req, r)
}

// sync adds the finalizer, or releases the claim when it is deleted.
func (r *ClaimReconciler) sync(ctx context.Context, req ctrl.Request) error {
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "ClaimReconciler/reread"
		return client.IgnoreNotFound(err)
	}
	if !pvc.DeletionTimestamp.IsZero() {
		r.release(ctx, &pvc)
		controllerutil.RemoveFinalizer(&pvc, legacyClaimFinalizer)
		controllerutil.RemoveFinalizer(&pvc, claimFinalizer) // want "ClaimReconciler/finalizer-remove"
		return r.Update(ctx, &pvc)
	}
	if controllerutil.AddFinalizer(&pvc, claimFinalizer) { // want "ClaimReconciler/finalizer-add"
		return r.Update(ctx, &pvc)
	}
	return nil
}

// release deletes the claim's ConfigMap.
func (r *ClaimReconciler) release(ctx context.Context, pvc *corev1.PersistentVolumeClaim) { // want "ClaimReconciler/finalizer-cleanup"
	cm := &corev1.ConfigMap{}
	cm.Name, cm.Namespace = pvc.Name, pvc.Namespace
	_ = r.Delete(ctx, cm)
}

// SetupWithManager registers the reconciler for claims.
func (r *ClaimReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Complete(r)
}
