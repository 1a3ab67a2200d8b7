package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// GizmoReconciler reconciles Widgets too, reaching their status through
// helpers: one returns it as a tuple's second value, another ranges over
// the statuses it is handed.
type GizmoReconciler struct {
	client.Client
}

// Reconcile marks the Widget ready and synced, then writes its status.
func (r *GizmoReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GizmoReconciler/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "GizmoReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	_, st := statusOf(&obj)
	setWidgetCondition(st, newWidgetCondition(v1.WidgetReady, metav1.ConditionTrue, "Deployed")) // want "GizmoReconciler/condition-set:Ready"
	markAll([]*v1.WidgetStatus{&obj.Status}, v1.WidgetSynced)                                    // want "GizmoReconciler/condition-set:Synced"
	markAll(nil, v1.WidgetDeploying)                                                             // decoy: condition-types (no status handed)
	if err := r.Status().Update(ctx, &obj); err != nil {                                         // want "GizmoReconciler/write-always"
		return ctrl.Result{}, err // want "GizmoReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// statusOf hands back the Widget's status.
func statusOf(w *v1.Widget) (bool, *v1.WidgetStatus) {
	return true, &w.Status
}

// markAll sets a True condition of type t on each status.
func markAll(list []*v1.WidgetStatus, t string) {
	for _, st := range list {
		setWidgetCondition(st, newWidgetCondition(t, metav1.ConditionTrue, t))
	}
}

// SetupWithManager registers the reconciler for Widgets.
func (r *GizmoReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
