// Package controller holds reconcilers that set their object's
// conditions only through helpers: constructors and setters of their own,
// methods of a conditions type, a closure that appends a literal, and a
// library helper (Flux's reconcile.ProgressiveStatus, which sets
// Reconciling) whose body is read from the module cache.
package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fluxcd/pkg/apis/meta"
	runtimereconcile "github.com/fluxcd/pkg/runtime/reconcile"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// WidgetReconciler reconciles Widgets.
type WidgetReconciler struct {
	client.Client
}

// Reconcile sets the Widget's conditions and writes its status.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WidgetReconciler/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "WidgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	runtimereconcile.ProgressiveStatus(false, &obj, v1.WidgetDeploying, "reconciling") // want "WidgetReconciler/condition-set:Reconciling" "WidgetReconciler/condition-type:Reconciling"

	// A constructor, then a setter that takes the status.
	ready := newWidgetCondition(v1.WidgetReady, metav1.ConditionTrue, "Deployed")
	setWidgetCondition(&obj.Status, ready) // want "WidgetReconciler/condition-set:Ready"

	// Methods of a conditions type fix the type; the list goes back.
	conds := conditionList(obj.Status.Conditions)
	conds.markDegraded("Broken") // want "WidgetReconciler/condition-set:Degraded"
	obj.Status.Conditions = conds

	// A closure appends a literal.
	markSynced := func() {
		obj.Status.Conditions = append(obj.Status.Conditions, metav1.Condition{Type: v1.WidgetSynced, Status: metav1.ConditionTrue}) // want "WidgetReconciler/condition-set:Synced"
	}
	markSynced()

	// Decoys: a child's conditions copied over keep the child's types,
	// which this controller never names; a computed type is no constant.
	var dep appsv1.Deployment
	if err := r.Get(ctx, types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}, &dep); err == nil { // decoy: reread (a child)
		for _, dc := range dep.Status.Conditions {
			obj.Status.Conditions = append(obj.Status.Conditions, metav1.Condition{Type: string(dc.Type), Status: metav1.ConditionStatus(dc.Status), Reason: dc.Reason})
		}
	}
	apimeta.SetStatusCondition(&obj.Status.Conditions, metav1.Condition{Type: fmt.Sprintf("%sAvailable", obj.Name), Status: metav1.ConditionTrue, Reason: meta.SucceededReason})

	if err := r.Status().Update(ctx, &obj); err != nil { // want "WidgetReconciler/write-always"
		return ctrl.Result{}, err // want "WidgetReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// newWidgetCondition builds a condition of the given type.
func newWidgetCondition(t string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{Type: t, Status: status, Reason: reason}
}

// setWidgetCondition puts c into the status, replacing one of its type.
func setWidgetCondition(st *v1.WidgetStatus, c metav1.Condition) {
	for i := range st.Conditions {
		if st.Conditions[i].Type == c.Type {
			st.Conditions[i] = c
			return
		}
	}
	st.Conditions = append(st.Conditions, c)
}

// conditionList is a Widget's conditions with setters that fix the type.
type conditionList []metav1.Condition

// markDegraded sets Degraded=True.
func (l *conditionList) markDegraded(reason string) {
	l.put(metav1.Condition{Type: v1.WidgetDegraded, Status: metav1.ConditionTrue, Reason: reason})
}

// put adds a condition to the list.
func (l *conditionList) put(c metav1.Condition) {
	*l = append(*l, c)
}

// SetupWithManager registers the reconciler for Widgets.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
