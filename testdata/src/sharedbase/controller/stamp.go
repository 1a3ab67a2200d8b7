package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove" "StampReconciler/condition-types" "StampReconciler/requeue-success" "StampReconciler/interval-trace" "StampReconciler/drift"

// StampReconciler stamps each PersistentVolumeClaim with a label; it
// holds no finalizer, though the claimer holds one on the same kind.
type StampReconciler struct {
	base
}

// Reconcile hands the pass to the base.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	return r.reconcile(ctx, req, r)
}

// sync labels the claim.
func (r *StampReconciler) sync(ctx context.Context, req ctrl.Request) error {
	var s corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "StampReconciler/reread"
		return client.IgnoreNotFound(err)
	}
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	s.Labels["stamped"] = "true"
	return r.Update(ctx, &s)
}

// SetupWithManager registers the reconciler for claims, under a name of
// its own.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("stamp").For(&corev1.PersistentVolumeClaim{}).Complete(r)
}
