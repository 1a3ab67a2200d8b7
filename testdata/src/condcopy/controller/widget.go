// Package controller holds reconcilers that rebuild a Widget's
// conditions from the live object: the Ready condition another controller
// computes is copied as it is found (picked by a test of its type, which
// sets no type), Healthy is copied and its status changed (a set), and
// Synced is made here.
package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condcopy/api/v1"
)

// want-none "requeue-success" "interval-trace" "drift"

// WidgetReconciler keeps a Widget's conditions.
type WidgetReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

// Reconcile rebuilds the Widget's conditions and writes its status.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WidgetReconciler/reconcile-entry"
	var live v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &live); err != nil { // want "WidgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	conds := []metav1.Condition{}
	for _, c := range live.Status.Conditions {
		if c.Type == v1.WidgetReady {
			conds = append(conds, c)
		}
		if c.Type == v1.WidgetHealthy {
			c.Status = metav1.ConditionTrue
			conds = append(conds, c) // want "WidgetReconciler/condition-set:Healthy"
		}
	}
	conds = append(conds, metav1.Condition{Type: v1.WidgetSynced, Status: metav1.ConditionTrue}) // want "WidgetReconciler/condition-set:Synced"
	live.Status.Conditions = conds
	return ctrl.Result{}, r.Status().Update(ctx, &live) // want "WidgetReconciler/requeue-error" "WidgetReconciler/write-always"
} // want-none "WidgetReconciler/finalizer-const" "WidgetReconciler/finalizer-add" "WidgetReconciler/finalizer-cleanup" "WidgetReconciler/finalizer-remove"
