package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "SplitReconciler/finalizer-const" "SplitReconciler/finalizer-add" "SplitReconciler/finalizer-cleanup" "SplitReconciler/finalizer-remove" "SplitReconciler/condition-types" "SplitReconciler/requeue-success" "SplitReconciler/interval-trace" "SplitReconciler/drift"

// SplitReconciler's pass is sync, whose error it hands back (with the
// error of the step sync hands it when sync succeeds): a pass succeeds
// only when sync did, so sync's early return for a suspended Ticker is a
// special case, and the event after it is recorded on every pass of a
// Ticker that is reconciled.
type SplitReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile runs sync, then the step it hands back.
func (r *SplitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SplitReconciler/reconcile-entry"
	step, err := r.sync(ctx, req)
	if err == nil {
		err = step(ctx)
	}
	return ctrl.Result{}, err // want "SplitReconciler/requeue-error"
}

// sync reads the Ticker and records that it was synced.
func (r *SplitReconciler) sync(ctx context.Context, req ctrl.Request) (func(context.Context) error, error) {
	step := func(context.Context) error { return nil }
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "SplitReconciler/reread"
		return step, client.IgnoreNotFound(err)
	}
	if obj.Spec.Suspend {
		return step, nil
	}
	r.Recorder.Event(obj, corev1.EventTypeNormal, "Synced", "ticker synced") // want "SplitReconciler/write-always"
	return step, nil
}

// SetupWithManager registers the reconciler for Tickers.
func (r *SplitReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("split").Complete(r)
}
