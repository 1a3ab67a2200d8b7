package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/statusapply/api/v1"
	"example.com/fixtures/statusapply/cond"
)

// want-none "LockReconciler/finalizer-const" "LockReconciler/finalizer-add" "LockReconciler/finalizer-cleanup" "LockReconciler/finalizer-remove" "LockReconciler/requeue-success" "LockReconciler/interval-trace" "LockReconciler/drift" "LockReconciler/condition-types"

// LockReconciler reports each Gate ready through a mutate callback that a
// helper runs on a Gate it reads afresh, inside a retry the library runs:
// the path does not show the callback's call, so the condition it sets on
// the status it is handed is not tied to the Gate, and the row is not
// settled, never "no condition is set".
type LockReconciler struct {
	client.Client
}

// Reconcile reports the Gate ready.
func (r *LockReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LockReconciler/reconcile-entry"
	var g v1.Gate
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "LockReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.updateStatus(ctx, req.NamespacedName, func(s *v1.GateStatus) { // want "LockReconciler/requeue-error"
		cond.Set(&s.Conditions, ready())
	})
}

// updateStatus runs mutate on the status of the Gate as the cluster holds
// it, and writes it, again when the write conflicts.
func (r *LockReconciler) updateStatus(ctx context.Context, key types.NamespacedName, mutate func(*v1.GateStatus)) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error {
		var g v1.Gate
		if err := r.Get(ctx, key, &g); err != nil {
			return err
		}
		mutate(&g.Status)
		return r.Status().Update(ctx, &g) // want "LockReconciler/write-always"
	})
}

// SetupWithManager registers the reconciler.
func (r *LockReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("lock").For(&v1.Gate{}).Complete(r)
}
