package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "RestReconciler/finalizer-const" "RestReconciler/finalizer-add" "RestReconciler/finalizer-cleanup" "RestReconciler/finalizer-remove" "RestReconciler/condition-types" "RestReconciler/requeue-success" "RestReconciler/interval-trace" "RestReconciler/drift"

// RestReconciler moves a new Ticker to Scheduled, and a Scheduled one to
// Done once its gate ConfigMap records a tick; a Done Ticker's pass does
// nothing. A Ticker whose gate never ticks rests in Scheduled, and each
// of its passes writes the status again: which state an unchanged Ticker
// rests in, the code does not settle, so neither does whether its pass
// writes.
type RestReconciler struct {
	client.Client
}

// Reconcile moves a Ticker one step on.
func (r *RestReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RestReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "RestReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.Status.Phase == tickv1.PhaseDone {
		return ctrl.Result{}, nil
	}
	gate := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: obj.Namespace, Name: obj.Name + "-gate"}, gate); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch obj.Status.Phase {
	case "", tickv1.PhaseNew:
		obj.Status.Phase = tickv1.PhaseScheduled
	default:
		if gate.Data["tick"] != "" {
			obj.Status.Phase = tickv1.PhaseDone
		}
	}
	return ctrl.Result{}, r.Status().Update(ctx, obj) // want "RestReconciler/requeue-error" "RestReconciler/write-unsettled"
}

// SetupWithManager registers the reconciler for Tickers.
func (r *RestReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("rest").Complete(r)
}
