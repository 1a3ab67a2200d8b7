package controller

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"example.com/fixtures/patchlib/gate"
)

// want-none "Namespace/reconcile-entry" "Namespace/reread" "Namespace/finalizer-const" "Namespace/finalizer-add" "Namespace/finalizer-cleanup" "Namespace/finalizer-remove" "Namespace/condition-types" "Namespace/requeue-error" "Namespace/requeue-success" "Namespace/interval-trace" "Namespace/drift"

// Setup registers the ledger and, through the library, its Namespace gate:
// a controller of the library's, every row of which is not settled.
func Setup(mgr ctrl.Manager) error {
	if err := gate.Setup(mgr); err != nil {
		return err
	}
	return (&LedgerReconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
}
