package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "ClockReconciler/finalizer-const" "ClockReconciler/finalizer-add" "ClockReconciler/finalizer-cleanup" "ClockReconciler/finalizer-remove" "ClockReconciler/condition-types" "ClockReconciler/requeue-success" "ClockReconciler/interval-trace"

// ClockReconciler writes a Ticker's status only when the pass changed it,
// comparing it with the status it read; but the pass stamps the clock's
// time into the status when the phase it computes is not the one held,
// and whether that runs on an unchanged Ticker's pass is not what the
// comparison settles.
type ClockReconciler struct {
	client.Client
}

// Reconcile observes the Ticker and writes its status when it changed.
func (r *ClockReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ClockReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "ClockReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	read := obj.Status
	observe(&obj.Status, obj.Spec)
	if !equality.Semantic.DeepEqual(read, obj.Status) {
		if err := r.Status().Update(ctx, obj); err != nil { // want "ClockReconciler/write-unsettled" "ClockReconciler/drift:unsettled"
			return ctrl.Result{}, err // want "ClockReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// observe sets the phase the spec calls for, stamping when it moved.
func observe(status *tickv1.TickerStatus, spec tickv1.TickerSpec) {
	phase := tickv1.PhaseScheduled
	if spec.Suspend {
		phase = tickv1.PhaseNew
	}
	if status.Phase != phase {
		status.Phase = phase
		status.LastTick = metav1.Now()
	}
}

// SetupWithManager registers the reconciler for Tickers.
func (r *ClockReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("clock").Complete(r)
}
