// Package controller holds reconcilers that write through a library's
// functions the knowledge table does not name: the library's bodies are
// read for the writes they make. A patch helper deferred at the top sends
// only what changed, so whether an unchanged object's pass writes is the
// library's test, not followed: not settled. A stamp that always updates
// the object it is handed writes on every pass.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/patchlib/patch"
)

// want-none "LedgerReconciler/finalizer-const" "LedgerReconciler/finalizer-add" "LedgerReconciler/finalizer-cleanup" "LedgerReconciler/finalizer-remove" "LedgerReconciler/condition-types" "LedgerReconciler/requeue-success" "LedgerReconciler/interval-trace" "LedgerReconciler/drift"

// LedgerReconciler labels each ConfigMap through the patch helper, and
// stamps it.
type LedgerReconciler struct{ client.Client }

// Reconcile labels the ConfigMap and stamps it.
func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LedgerReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "LedgerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	helper := patch.NewHelper(&cm, r.Client)
	defer func() {
		_ = helper.Patch(ctx, &cm) // want "LedgerReconciler/write-unsettled"
	}()
	cm.Labels = map[string]string{"ledger": "seen"}
	return ctrl.Result{}, patch.Stamp(ctx, r.Client, &cm) // want "LedgerReconciler/write-always" "LedgerReconciler/requeue-error"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
