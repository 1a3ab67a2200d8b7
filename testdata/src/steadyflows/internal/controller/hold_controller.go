package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "HoldReconciler/finalizer-const" "HoldReconciler/finalizer-add" "HoldReconciler/finalizer-cleanup" "HoldReconciler/finalizer-remove" "HoldReconciler/condition-types" "HoldReconciler/requeue-success" "HoldReconciler/interval-trace" "HoldReconciler/drift"

// HoldReconciler stamps each pass of a Ticker into its status, unless the
// Ticker's hold ConfigMap says to hold it: whether an unchanged Ticker's
// pass writes depends on that other object, which the code does not
// settle.
type HoldReconciler struct {
	client.Client
}

// Reconcile records the pass.
func (r *HoldReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HoldReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "HoldReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	hold := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: obj.Namespace, Name: "hold"}, hold); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if hold.Immutable != nil && *hold.Immutable {
		return ctrl.Result{}, nil
	}
	obj.Status.LastTick = obj.CreationTimestamp
	return ctrl.Result{}, r.Status().Update(ctx, obj) // want "HoldReconciler/requeue-error" "HoldReconciler/write-unsettled"
}

// SetupWithManager registers the reconciler for Tickers.
func (r *HoldReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("hold").Complete(r)
}
