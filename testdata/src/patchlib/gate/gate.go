// Package gate is a library's controller (a fixture's dependency, not a
// fixture): Setup registers, with the manager it is handed, a reconciler
// of the library's own that watches Namespaces.
package gate

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

type reconciler struct{}

// Reconcile notes that a Namespace changed.
func (reconciler) Reconcile(context.Context, ctrl.Request) (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

// Setup registers the Namespace gate with mgr.
func Setup(mgr ctrl.Manager) error {
	return register(mgr, "gate")
}

func register(mgr ctrl.Manager, name string) error {
	return ctrl.NewControllerManagedBy(mgr).Named(name).For(&corev1.Namespace{}).Complete(reconciler{})
}
