package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "MigrateReconciler/finalizer-add" "MigrateReconciler/finalizer-cleanup" "MigrateReconciler/condition-types" "MigrateReconciler/requeue-success" "MigrateReconciler/interval-trace" "MigrateReconciler/drift"

// legacyFinalizer is the finalizer an older version of the controller
// added to ConfigMaps.
const legacyFinalizer = "finproof.example.com/legacy" // want "MigrateReconciler/finalizer-const"

// MigrateReconciler drops the legacy finalizer from every ConfigMap, on
// every pass, outside any deletion branch: nothing adds it any more, and
// that none is the answer, not a missed addition.
type MigrateReconciler struct {
	client.Client
}

// Reconcile removes the legacy finalizer.
func (r *MigrateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MigrateReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "MigrateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	controllerutil.RemoveFinalizer(&cm, legacyFinalizer) // want "MigrateReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, &cm)             // want "MigrateReconciler/requeue-error" "MigrateReconciler/write-always"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MigrateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("migrator").Complete(r)
}
