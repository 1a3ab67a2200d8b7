package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "NotifyReconciler/finalizer-const" "NotifyReconciler/finalizer-add" "NotifyReconciler/finalizer-cleanup" "NotifyReconciler/finalizer-remove" "NotifyReconciler/condition-types" "NotifyReconciler/requeue-success" "NotifyReconciler/interval-trace" "NotifyReconciler/drift"

// NotifyReconciler records an event on each pass of a Ticker, when it is
// built with a recorder: whether an unchanged Ticker's pass records it
// depends on what builds the reconciler, which the code here does not
// settle.
type NotifyReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile notes the pass.
func (r *NotifyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NotifyReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "NotifyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "NotifyReconciler/requeue-error"
	}
	if r.Recorder != nil {
		r.Recorder.Event(obj, corev1.EventTypeNormal, "Seen", "ticker seen") // want "NotifyReconciler/write-unsettled"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Tickers.
func (r *NotifyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("notify").Complete(r)
}
