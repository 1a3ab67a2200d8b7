package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// steadyResult is the result of a pass that found nothing to do: a
// package variable nothing assigns after its initialiser, so every read
// of it holds a wait of an hour.
var steadyResult = ctrl.Result{RequeueAfter: time.Hour} // want "ThetaReconciler/trace:constant"

// failedResult is handed back with a failure; the error decides.
var failedResult = ctrl.Result{}

// ThetaReconciler looks at ServiceAccounts.
type ThetaReconciler struct {
	client.Client
}

// Reconcile reads the ServiceAccount and hands back steadyResult: the
// success requeue is that return, its interval the initialiser's.
func (r *ThetaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ThetaReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "ThetaReconciler/reread"
		return failedResult, client.IgnoreNotFound(err) // want "ThetaReconciler/requeue-error"
	}
	return steadyResult, nil // want "ThetaReconciler/requeue-success" "ThetaReconciler/trace:return"
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *ThetaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}
