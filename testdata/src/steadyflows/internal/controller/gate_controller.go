package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "GateReconciler/finalizer-const" "GateReconciler/finalizer-add" "GateReconciler/finalizer-cleanup" "GateReconciler/finalizer-remove" "GateReconciler/condition-types" "GateReconciler/requeue-success" "GateReconciler/interval-trace" "GateReconciler/drift"

// GateReconciler ticks each new Ticker once and marks it Done; a Ticker
// whose tick failed is marked Failed and left alone. Done is where a
// handled Ticker rests; Failed only a pass that failed writes, so a
// Ticker's steady state never ends its pass there.
type GateReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile ticks a new Ticker.
func (r *GateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GateReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "GateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.Status.Phase == tickv1.PhaseFailed {
		log.FromContext(ctx).Info("ticker failed, left alone")
		return ctrl.Result{}, nil
	}
	r.Recorder.Event(obj, corev1.EventTypeNormal, "Checked", "ticker checked") // want "GateReconciler/write-always"
	if obj.Status.Phase != tickv1.PhaseNew && obj.Status.Phase != "" {
		return ctrl.Result{}, nil
	}
	if err := r.tick(ctx, obj); err != nil {
		obj.Status.Phase = tickv1.PhaseFailed
		return ctrl.Result{}, r.Status().Update(ctx, obj)
	}
	obj.Status.Phase = tickv1.PhaseDone
	return ctrl.Result{}, r.Status().Update(ctx, obj) // want "GateReconciler/requeue-error" // decoy: write-always (a Done Ticker's pass ends above)
}

// tick reads the ticks ConfigMap.
func (r *GateReconciler) tick(ctx context.Context, obj *tickv1.Ticker) error {
	return r.Get(ctx, client.ObjectKey{Namespace: obj.Namespace, Name: "ticks"}, &corev1.ConfigMap{})
}

// SetupWithManager registers the reconciler for Tickers.
func (r *GateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("gate").Complete(r)
}
