// Package controller holds four reconcilers whose condition types reach
// the object through values: a list a helper ranges over, a tuple result
// of another package, a status value sent by server-side apply, and the
// options small constructors build.
package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1 "example.com/fixtures/condflows/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// AlphaReconciler reconciles Alphas.
type AlphaReconciler struct {
	client.Client
}

// Reconcile builds the Alpha's conditions in a list and applies them.
func (r *AlphaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AlphaReconciler/reconcile-entry"
	var obj v1.Alpha
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "AlphaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var conds []metav1.Condition
	conds = append(conds, makeCondition(v1.AlphaReady, &obj))
	conds = append(conds, makeCondition(v1.AlphaProgressing, &obj))
	applyConditions(&obj, conds) // want "AlphaReconciler/condition-set:Ready" "AlphaReconciler/condition-set:Progressing"

	// Decoy: a condition built and only logged.
	exported := makeCondition(v1.AlphaExported, &obj)
	log.FromContext(ctx).Info("export", "condition", exported.Type)

	if err := r.Status().Update(ctx, &obj); err != nil { // want "AlphaReconciler/write-always"
		return ctrl.Result{}, err // want "AlphaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// makeCondition builds a True condition of a type for any object.
func makeCondition[O interface{ GetGeneration() int64 }](t string, obj O) metav1.Condition {
	return metav1.Condition{Type: t, Status: metav1.ConditionTrue, Reason: "Reconciled", ObservedGeneration: obj.GetGeneration()}
}

// applyConditions puts each condition of the list on the object, in place
// of one of the same type.
func applyConditions(obj *v1.Alpha, conds []metav1.Condition) {
	for _, c := range conds {
		replaced := false
		for i := range obj.Status.Conditions {
			if obj.Status.Conditions[i].Type == c.Type {
				obj.Status.Conditions[i] = c
				replaced = true
			}
		}
		if !replaced {
			obj.Status.Conditions = append(obj.Status.Conditions, c)
		}
	}
}

// SetupWithManager registers the reconciler for Alphas.
func (r *AlphaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Alpha{}).Complete(r)
}
