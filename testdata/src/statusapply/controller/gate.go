// Package controller reconciles Gates. Their conditions are built by a
// constructor, merged by a helper that hands back the list and whether it
// changed, stored in a fresh status value, and sent in a patch object of
// their own made for the Gate by name: the condition reaches the Gate's
// status through that patch, which ctrlcmp does not tie to the Gate, so
// the row is not settled, never "no condition is set".
package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/statusapply/api/v1"
	"example.com/fixtures/statusapply/cond"
)

// want-none "GateReconciler/finalizer-const" "GateReconciler/finalizer-add" "GateReconciler/finalizer-cleanup" "GateReconciler/finalizer-remove" "GateReconciler/requeue-success" "GateReconciler/interval-trace" "GateReconciler/drift" "GateReconciler/condition-types"

// GateReconciler reports each Gate ready.
type GateReconciler struct {
	client.Client
}

// Reconcile reports the Gate ready.
func (r *GateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GateReconciler/reconcile-entry"
	var g v1.Gate
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "GateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.report(ctx, &g, ready()) // want "GateReconciler/requeue-error"
}

// ready is the condition of a ready Gate.
func ready() v1.Condition {
	return v1.Condition{Type: v1.GateReady, Status: "True", Reason: "Open"}
}

// report patches the Gate's status with the conditions merged in.
func (r *GateReconciler) report(ctx context.Context, g *v1.Gate, news ...v1.Condition) error {
	status := v1.GateStatus{}
	status.Conditions, _ = cond.Merge(g.Status.Conditions, news...)
	patch := &v1.Gate{ObjectMeta: metav1.ObjectMeta{Name: g.Name, Namespace: g.Namespace}, Status: status}
	return r.Status().Patch(ctx, patch, client.Merge) // want "GateReconciler/write-always"
}

// SetupWithManager registers the reconciler.
func (r *GateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gate{}).Complete(r)
}
