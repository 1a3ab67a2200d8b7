// Package controller holds the Gate reconciler. Its status update, in a
// deferred closure, is skipped when a condition some earlier hand left in
// the status says so: whether it is made on every pass depends on what
// that status holds, which the code does not settle.
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	gatev1 "example.com/fixtures/statusguard/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "drift" "interval-trace"

// GateReconciler counts a Gate's passes into its status.
type GateReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *GateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&gatev1.Gate{}).Complete(r)
}

// Reconcile counts the pass, and records the count when the pass ends,
// unless the gate is sealed.
func (r *GateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	gate := &gatev1.Gate{}
	if err := r.Get(ctx, req.NamespacedName, gate); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "requeue-error"
	}
	defer func() {
		if meta.IsStatusConditionTrue(gate.Status.Conditions, gatev1.ConditionSealed) {
			return
		}
		_ = r.Status().Update(ctx, gate) // want "write-unsettled"
	}()
	gate.Status.Passes++
	return ctrl.Result{}, nil
}
