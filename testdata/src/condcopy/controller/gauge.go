package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condcopy/api/v1"
)

// want-none "GaugeReconciler/finalizer-const" "GaugeReconciler/finalizer-add" "GaugeReconciler/finalizer-cleanup" "GaugeReconciler/finalizer-remove" "GaugeReconciler/requeue-success" "GaugeReconciler/interval-trace" "GaugeReconciler/drift"

// GaugeReconciler is WidgetReconciler with its conditions rebuilt by a
// helper handed the live Widget: the Ready condition it finds there is
// kept as it is (a copy of the object's own, which sets no type), and the
// Healthy one, copied and changed under a test of its type, is handed to
// another helper that appends it (a set, wherever the append is made).
type GaugeReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *GaugeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("gauge").For(&v1.Widget{}).Complete(r)
}

// Reconcile rebuilds the Widget's conditions and writes its status.
func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GaugeReconciler/reconcile-entry"
	var live v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &live); err != nil { // want "GaugeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.writeStatus(ctx, &live) // want "GaugeReconciler/requeue-error"
}

// writeStatus keeps live's Ready condition, marks its Healthy one true,
// and writes the status.
func (r *GaugeReconciler) writeStatus(ctx context.Context, live *v1.Widget) error {
	var conds []metav1.Condition
	for _, c := range live.Status.Conditions {
		if c.Type == v1.WidgetReady {
			conds = append(conds, c) // decoy: condition-set (the object's own Ready, kept)
		}
		if c.Type == v1.WidgetHealthy {
			c.Status = metav1.ConditionTrue
			conds = withCondition(conds, c)
		}
	}
	live.Status.Conditions = conds      // want "GaugeReconciler/condition-set:Healthy"
	return r.Status().Update(ctx, live) // want "GaugeReconciler/write-always"
}

// withCondition is list with c added.
func withCondition(list []metav1.Condition, c metav1.Condition) []metav1.Condition {
	return append(list, c)
}
