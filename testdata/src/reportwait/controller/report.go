// Package controller holds reconcilers whose rows a search of one return
// or one store cannot settle alone.
package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/reportwait/api/v1"
)

// reporter collects the conditions of one pass.
type reporter struct {
	conds []metav1.Condition
}

// report records a condition of type t.
func (p *reporter) report(t string, s metav1.ConditionStatus) {
	p.conds = append(p.conds, metav1.Condition{Type: t, Status: s})
}

// merged is a copy of st with the collected conditions added.
func (p *reporter) merged(st v1.WidgetStatus) v1.WidgetStatus {
	out := st.DeepCopy()
	for _, c := range p.conds {
		out.Conditions = append(out.Conditions, c)
	}
	return *out
}

// passState is one pass's state: a copy of the Widget and of its status,
// and the conditions reported on the way.
type passState struct {
	*reporter
	obj    v1.Widget
	status v1.WidgetStatus
}

// newPassState starts a pass on w.
func newPassState(w v1.Widget) *passState {
	return &passState{reporter: &reporter{}, obj: w, status: *w.Status.DeepCopy()}
}

// apply merges the reported conditions into a copy of the status, sets it
// on the Widget's copy and hands that back.
func (s *passState) apply() *v1.Widget {
	current := s.merged(s.status)
	s.obj.Status = current
	return &s.obj
}

// ReportReconciler sets its Widget's conditions through a reporter kept in
// the pass's state, whose list it merges into the status it assigns whole:
// the condition row is not settled, never none.
type ReportReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *ReportReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}

// Reconcile reports the Widget ready and writes its status.
func (r *ReportReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReportReconciler/reconcile-entry"
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil { // want "ReportReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	st := newPassState(w)
	r.work(st)
	return ctrl.Result{}, r.Status().Update(ctx, st.apply()) // want "ReportReconciler/requeue-error" "ReportReconciler/write-always"
} // want-none "ReportReconciler/condition-types" "ReportReconciler/finalizer-const" "ReportReconciler/finalizer-add" "ReportReconciler/finalizer-cleanup" "ReportReconciler/finalizer-remove" "ReportReconciler/requeue-success" "ReportReconciler/interval-trace" "ReportReconciler/drift"

// work does the pass's work and reports how it went.
func (r *ReportReconciler) work(st *passState) {
	st.report(v1.WidgetReady, metav1.ConditionTrue)
}
