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
// that none is the answer, not a missed addition. A branch on the deletion
// only notes it in a flag: no cleanup function, a settled none.
type MigrateReconciler struct {
	client.Client
}

// Reconcile removes the legacy finalizer.
func (r *MigrateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MigrateReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "MigrateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// A branch on the deletion that only notes it: the removal below runs
	// either way, with no cleanup function.
	deleting := false
	if !cm.DeletionTimestamp.IsZero() {
		deleting = true
	}
	if cm.Labels["finproof.example.com/frozen"] == "true" && !deleting {
		return ctrl.Result{}, nil
	}
	controllerutil.RemoveFinalizer(&cm, legacyFinalizer) // want "MigrateReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, &cm)             // want "MigrateReconciler/requeue-error" "MigrateReconciler/write-always"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MigrateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("migrator").Complete(r)
}
