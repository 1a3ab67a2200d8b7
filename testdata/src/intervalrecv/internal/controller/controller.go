// Package controller holds two reconcilers whose interval is the time to
// a moment computed by a library method, next.Sub(now): the Pulse's
// moment is its last beat plus a spec field of seconds, so the trace
// follows the method's receiver to the field; the Delay's is its creation
// plus a constant (the decoy: a spec field of the same type sits beside
// it, and no field of the object sets the interval); the Tick's is the
// next time of a schedule a library parses from a spec field, asked of the
// schedule (an interface) the parser returns: the receiver is traced to
// the field, the clock is not.
package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/robfig/cron/v3"

	v1 "example.com/fixtures/intervalrecv/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// settle is how long a Delay waits after it was created.
const settle = 30 * time.Second // want "DelayReconciler/trace:constant"

// PulseReconciler requeues each Pulse for its next beat.
type PulseReconciler struct {
	client.Client
}

// Reconcile requeues the Pulse when its next beat is due.
func (r *PulseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PulseReconciler/reconcile-entry"
	obj := &v1.Pulse{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "PulseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "PulseReconciler/requeue-error"
	}
	next := obj.Status.LastBeat.Add(time.Duration(obj.Spec.PeriodSeconds) * time.Second)
	return ctrl.Result{RequeueAfter: next.Sub(time.Now())}, nil // want "PulseReconciler/requeue-success" "PulseReconciler/trace:return"
}

// DelayReconciler requeues each Delay once it has settled.
type DelayReconciler struct {
	client.Client
}

// Reconcile requeues the Delay when it has settled.
func (r *DelayReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DelayReconciler/reconcile-entry"
	obj := &v1.Delay{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "DelayReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "DelayReconciler/requeue-error"
	}
	due := obj.CreationTimestamp.Add(settle)
	return ctrl.Result{RequeueAfter: due.Sub(time.Now())}, nil // want "DelayReconciler/requeue-success" "DelayReconciler/trace:return"
}

// TickReconciler requeues each Tick for its next scheduled time.
type TickReconciler struct {
	client.Client
}

// Reconcile requeues the Tick when its schedule next fires.
func (r *TickReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TickReconciler/reconcile-entry"
	obj := &v1.Tick{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "TickReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	schedule, err := cron.ParseStandard(obj.Spec.Schedule)
	if err != nil {
		return ctrl.Result{}, err // want "TickReconciler/requeue-error"
	}
	now := time.Now()
	next := schedule.Next(now)
	return ctrl.Result{RequeueAfter: next.Sub(now)}, nil // want "TickReconciler/requeue-success" "TickReconciler/trace:return"
}

// Setup registers the reconcilers.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&v1.Pulse{}).Complete(&PulseReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&v1.Tick{}).Complete(&TickReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Delay{}).Complete(&DelayReconciler{Client: mgr.GetClient()})
}
