package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "PollReconciler/finalizer-const" "PollReconciler/finalizer-add" "PollReconciler/finalizer-cleanup" "PollReconciler/finalizer-remove" "PollReconciler/condition-types" "PollReconciler/drift"

// PollReconciler requeues each Ticker after its period, or sooner when the
// controller's own bound is shorter.
type PollReconciler struct {
	client.Client
	// MaxWait bounds the wait between two passes.
	MaxWait time.Duration
}

// Reconcile requeues the Ticker after the least of the two waits.
func (r *PollReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PollReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "PollReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "PollReconciler/requeue-error"
	}
	every := time.Duration(obj.Spec.PeriodSeconds) * time.Second
	return ctrl.Result{RequeueAfter: min(r.MaxWait, every)}, nil // want "PollReconciler/requeue-success" "PollReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Tickers.
func (r *PollReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Complete(r)
}
