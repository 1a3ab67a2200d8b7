package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/reflectcond/api/v1"
	"example.com/fixtures/reflectcond/status"
)

// GaugeReconciler hands the Gauge's status to the same reflective marker,
// but that status holds no conditions: none is set, whatever the marker
// does, and the row says so as a settled none.
// want-none "GaugeReconciler/condition-types" "GaugeReconciler/finalizer-const" "GaugeReconciler/finalizer-add" "GaugeReconciler/finalizer-cleanup" "GaugeReconciler/finalizer-remove"
// want-none "GaugeReconciler/requeue-success" "GaugeReconciler/interval-trace" "GaugeReconciler/drift"
type GaugeReconciler struct {
	client.Client
}

// Reconcile hands the Gauge's status to the marker and writes it.
func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GaugeReconciler/reconcile-entry"
	var g v1.Gauge
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "GaugeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	status.MarkReady(&g.Status)
	return ctrl.Result{}, r.Status().Update(ctx, &g) // want "GaugeReconciler/requeue-error" "GaugeReconciler/write-always"
}

// SetupWithManager registers the reconciler for Gauges.
func (r *GaugeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gauge{}).Named("gauge").Complete(r)
}
