// Package controller holds a reconciler in the middle of an edit: publish
// calls a helper that is not written yet, so its body does not type-check
// and no SSA is built from it. Its condition and its write are still
// found, from its syntax and the types recorded, and marked partial.
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/illtyped/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace"

// ReadyType is the Thing's one condition type.
const ReadyType = "Ready" // want "condition-type:Ready"

// ThingReconciler reconciles Things.
type ThingReconciler struct {
	client.Client
}

// Reconcile reads the Thing and publishes its status.
func (r *ThingReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var obj v1.Thing
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.publish(ctx, &obj); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// publish sets Ready and writes the status; summarize is not written yet.
func (r *ThingReconciler) publish(ctx context.Context, obj *v1.Thing) error { // want "drift:unread"
	meta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: ReadyType, Status: metav1.ConditionTrue, Reason: "Published"}) // want "condition-set:Ready" "partial"
	obj.Status.Summary = summarize(obj)
	return r.Status().Update(ctx, obj) // want "partial"
}

// SetupWithManager registers the reconciler for Things.
func (r *ThingReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Thing{}).Complete(r)
}
