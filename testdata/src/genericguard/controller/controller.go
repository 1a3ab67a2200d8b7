// Package controller holds two reconcilers that run the same generic guard
// on their own object, each instantiated with its kind: the Gauge's
// rejection sets a condition, the Dial's does not, though the guard's call
// of MarkRejected dispatches to both methods in its one declaration.
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/genericguard/api/v1"
	"example.com/fixtures/genericguard/guard"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// GaugeReconciler reconciles Gauges.
type GaugeReconciler struct {
	client.Client
	Guard *guard.Guard[*v1.Gauge]
}

// Reconcile admits the Gauge, then marks it ready.
func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GaugeReconciler/reconcile-entry"
	var g v1.Gauge
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "GaugeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ok, err := r.Guard.Admit(ctx, r.Client, &g)
	if err != nil || !ok {
		return ctrl.Result{}, err
	}
	meta.SetStatusCondition(&g.Status.Conditions, metav1.Condition{Type: v1.GaugeReady, Status: metav1.ConditionTrue, Reason: "Admitted"}) // want "GaugeReconciler/condition-set:Ready"

	if err := r.Status().Update(ctx, &g); err != nil { // want "GaugeReconciler/write-always"
		return ctrl.Result{}, err // want "GaugeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// DialReconciler reconciles Dials.
type DialReconciler struct {
	client.Client
	Guard *guard.Guard[*v1.Dial]
}

// Reconcile admits the Dial, then marks it online.
func (r *DialReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DialReconciler/reconcile-entry"
	var d v1.Dial
	if err := r.Get(ctx, req.NamespacedName, &d); err != nil { // want "DialReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// Decoy: the guard's MarkRejected is the Dial's here, which sets no
	// condition; the Gauge's, which sets Rejected, runs only for Gauges.
	ok, err := r.Guard.Admit(ctx, r.Client, &d)
	if err != nil || !ok {
		return ctrl.Result{}, err
	}
	meta.SetStatusCondition(&d.Status.Conditions, metav1.Condition{Type: v1.DialOnline, Status: metav1.ConditionTrue, Reason: "Admitted"}) // want "DialReconciler/condition-set:Online"

	if err := r.Status().Update(ctx, &d); err != nil { // want "DialReconciler/write-always"
		return ctrl.Result{}, err // want "DialReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// Setup registers both reconcilers, each with its guard.
func Setup(mgr ctrl.Manager) error {
	gauges := &guard.Guard[*v1.Gauge]{Validate: func(*v1.Gauge) error { return nil }}
	if err := ctrl.NewControllerManagedBy(mgr).For(&v1.Gauge{}).Complete(&GaugeReconciler{Client: mgr.GetClient(), Guard: gauges}); err != nil {
		return err
	}
	dials := &guard.Guard[*v1.Dial]{Validate: func(*v1.Dial) error { return nil }}
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Dial{}).Complete(&DialReconciler{Client: mgr.GetClient(), Guard: dials})
}
