package controller

import (
	"context"
	"errors"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// TallyReconciler keeps one tally per condition type in a map while the
// pass runs and turns the map into conditions at its end: the types are
// the map's keys, stored by a literal and by the methods the map is
// handed to.
// want-none "TallyReconciler/finalizer-const" "TallyReconciler/finalizer-add" "TallyReconciler/finalizer-cleanup" "TallyReconciler/finalizer-remove"
// want-none "TallyReconciler/requeue-success" "TallyReconciler/interval-trace" "TallyReconciler/drift"
type TallyReconciler struct {
	client.Client
}

// tally is what a pass found for one condition type.
type tally struct {
	status metav1.ConditionStatus
	reason string
}

// tallies are a pass's findings by condition type.
type tallies map[string]*tally

// newTallies starts every pass with Ready unknown.
func newTallies() tallies {
	return tallies{v1.WidgetReady: {status: metav1.ConditionUnknown, reason: "Pending"}}
}

// of is the tally of one type, made when the pass first finds something.
func (t tallies) of(condType string) *tally {
	if e, ok := t[condType]; ok {
		return e
	}
	t[condType] = &tally{status: metav1.ConditionUnknown, reason: "Pending"}
	return t[condType]
}

// failed records a failure under a type.
func (t tallies) failed(condType string, err error) {
	e := t.of(condType)
	e.status, e.reason = metav1.ConditionFalse, err.Error()
}

// passed records a success under a type.
func (t tallies) passed(condType string) {
	e := t.of(condType)
	e.status, e.reason = metav1.ConditionTrue, "Done"
}

// conditions are the tallies as conditions, one per key.
func (t tallies) conditions(generation int64) []metav1.Condition {
	var out []metav1.Condition
	for condType, e := range t {
		out = append(out, metav1.Condition{Type: condType, Status: e.status, Reason: e.reason, ObservedGeneration: generation})
	}
	return out
}

// Reconcile tallies the Widget's checks and writes them as its conditions.
func (r *TallyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TallyReconciler/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "TallyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	found := newTallies()
	check(&obj, found)
	for _, c := range found.conditions(obj.Generation) {
		meta.SetStatusCondition(&obj.Status.Conditions, c) // want "TallyReconciler/condition-set:Ready" "TallyReconciler/condition-set:Synced" "TallyReconciler/condition-set:Degraded"
	}
	return ctrl.Result{}, r.Status().Update(ctx, &obj) // want "TallyReconciler/requeue-error" "TallyReconciler/write-always"
}

// check tallies the Widget's sync, and its degradation once it has been
// seen twice.
func check(obj *v1.Widget, found tallies) {
	if obj.Generation > 1 {
		found.failed(v1.WidgetDegraded, errors.New("changed since it was made"))
	} else {
		delete(found, v1.WidgetDegraded) // a builtin handed the map adds no key
	}
	found.passed(v1.WidgetSynced)
}

// SetupWithManager registers the reconciler for Widgets.
func (r *TallyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Named("tally").Complete(r)
}
