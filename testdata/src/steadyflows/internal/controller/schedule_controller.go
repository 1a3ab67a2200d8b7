package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "ScheduleReconciler/finalizer-const" "ScheduleReconciler/finalizer-add" "ScheduleReconciler/finalizer-cleanup" "ScheduleReconciler/finalizer-remove" "ScheduleReconciler/condition-types" "ScheduleReconciler/drift"

// ScheduleReconciler ticks each Ticker on its period, as a state machine
// on its phase: a new Ticker is scheduled; a scheduled one whose recorded
// next tick is due gets the tick recorded in a ConfigMap and the next one
// in its status; before then, a pass only waits for it.
type ScheduleReconciler struct {
	client.Client
	Clock clock.Clock
}

// Reconcile schedules a new Ticker, or ticks a scheduled one that is due.
func (r *ScheduleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ScheduleReconciler/reconcile-entry"
	obj, err := r.ticker(ctx, req.NamespacedName)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	now := r.Clock.Now()
	switch obj.Status.Phase {
	case "", tickv1.PhaseNew:
		obj.Status.Phase = tickv1.PhaseScheduled
		obj.Status.NextTick = metav1.NewTime(now)
		return ctrl.Result{}, r.Status().Update(ctx, obj)
	case tickv1.PhaseScheduled:
		next := obj.Status.NextTick
		if next.After(now) {
			return ctrl.Result{RequeueAfter: next.Sub(now)}, nil
		}
		tick := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: obj.Name + "-tick-", Namespace: obj.Namespace}}
		if err := r.Create(ctx, tick); err != nil { // decoy: write-always (a Ticker whose tick is not due waits above)
			return ctrl.Result{}, err
		}
		period := time.Duration(obj.Spec.PeriodSeconds) * time.Second
		obj.Status.NextTick = metav1.NewTime(now.Add(period))
		if err := r.Status().Update(ctx, obj); err != nil { // decoy: write-always
			return ctrl.Result{}, err // want "ScheduleReconciler/requeue-error"
		}
		return ctrl.Result{RequeueAfter: period}, nil // want "ScheduleReconciler/requeue-success" "ScheduleReconciler/trace:return"
	}
	return ctrl.Result{}, nil
}

// ticker reads a Ticker.
func (r *ScheduleReconciler) ticker(ctx context.Context, key types.NamespacedName) (*tickv1.Ticker, error) {
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, key, obj); err != nil { // want "ScheduleReconciler/reread"
		return nil, err
	}
	return obj, nil
}

// SetupWithManager registers the reconciler for Tickers.
func (r *ScheduleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.Clock = clock.RealClock{}
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("schedule").Complete(r)
}
