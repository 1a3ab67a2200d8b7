// Package controller holds a reconciler whose main work is in the middle
// of an edit: build calls a digest helper that is not written yet, so its
// body does not type-check and no SSA is built from it. The entry hands
// back what build returns, so the success requeue and the main work's
// failure are among returns that are not read: both rows are not
// settled, however certain the entry's own failure returns look. build
// also calls markBuilt, reached through no other function: the condition
// type it sets is not seen, so the types found are not settled beyond
// themselves.
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/illtypedend/api/v1"
)

// want-none "WidgetReconciler/finalizer-const" "WidgetReconciler/finalizer-add" "WidgetReconciler/finalizer-cleanup" "WidgetReconciler/finalizer-remove" "WidgetReconciler/requeue-error" "WidgetReconciler/requeue-success" "WidgetReconciler/interval-trace"

const (
	// ValidType is set when the Widget's spec is checked.
	ValidType = "Valid" // want "WidgetReconciler/condition-type:Valid"
	// BuiltType is set by the main work, which is not analysed.
	BuiltType = "Built"
)

// WidgetReconciler reconciles Widgets.
type WidgetReconciler struct {
	client.Client
}

// Reconcile checks the Widget, then builds it.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WidgetReconciler/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "WidgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.validate(ctx, &obj); err != nil {
		return ctrl.Result{}, err
	}
	return r.build(ctx, &obj)
}

// validate marks the spec checked and saves the status.
func (r *WidgetReconciler) validate(ctx context.Context, obj *v1.Widget) error {
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: ValidType, Status: metav1.ConditionTrue, Reason: "Checked"}) // want "WidgetReconciler/condition-set:Valid"
	return r.Status().Update(ctx, obj)                                                                                                  // want "WidgetReconciler/write-always"
}

// build is the main work; digestOf is not written yet.
func (r *WidgetReconciler) build(ctx context.Context, obj *v1.Widget) (ctrl.Result, error) { // want "WidgetReconciler/drift:unread"
	obj.Status.Digest = digestOf(obj)
	if err := r.Status().Update(ctx, obj); err != nil { // want "WidgetReconciler/partial"
		return ctrl.Result{}, err
	}
	r.markBuilt(obj)
	return ctrl.Result{RequeueAfter: obj.Spec.Interval.Duration}, nil
}

// markBuilt sets Built; only build calls it.
func (r *WidgetReconciler) markBuilt(obj *v1.Widget) {
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: BuiltType, Status: metav1.ConditionTrue, Reason: "Built"})
}

// SetupWithManager registers the reconciler for Widgets.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
