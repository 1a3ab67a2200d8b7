// Package controller holds a reconciler whose interval is carried in an
// options struct a helper builds, from a spec field of seconds converted
// to a duration, less the time since the last tick (observed state, not a
// setting).
package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/intervalflows/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// TickerReconciler requeues each Ticker on its period.
type TickerReconciler struct {
	client.Client
}

// tickOptions are the settings one pass works with.
type tickOptions struct {
	every time.Duration
}

// optionsFor builds a pass's settings from the Ticker's spec.
func optionsFor(obj *tickv1.Ticker) tickOptions {
	return tickOptions{every: time.Duration(obj.Spec.PeriodSeconds) * time.Second}
}

// Reconcile requeues the Ticker when its next tick is due.
func (r *TickerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "requeue-error"
	}
	opts := optionsFor(obj)
	return ctrl.Result{RequeueAfter: opts.every - time.Since(obj.Status.LastTick.Time)}, nil // want "requeue-success" "trace:return"
}

// SetupWithManager registers the reconciler for Tickers.
func (r *TickerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Complete(r)
}
