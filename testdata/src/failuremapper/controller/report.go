package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ReportReconciler/finalizer-const" "ReportReconciler/finalizer-add" "ReportReconciler/finalizer-cleanup" "ReportReconciler/finalizer-remove" "ReportReconciler/condition-types" "ReportReconciler/requeue-success" "ReportReconciler/interval-trace" "ReportReconciler/drift"
// want-none "OutcomeReconciler/finalizer-const" "OutcomeReconciler/finalizer-add" "OutcomeReconciler/finalizer-cleanup" "OutcomeReconciler/finalizer-remove" "OutcomeReconciler/condition-types" "OutcomeReconciler/requeue-success" "OutcomeReconciler/interval-trace" "OutcomeReconciler/drift"

// ReportReconciler labels each ConfigMap and reports every pass's outcome
// through one helper: handed the failure where the work fails, nil where
// it succeeded. At the pass's end the helper's error is its own write's,
// not the work's: the main work's failure is the one before it.
type ReportReconciler struct{ client.Client }

// Reconcile labels the ConfigMap, then reports.
func (r *ReportReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReportReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ReportReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.label(ctx, &cm); err != nil {
		return ctrl.Result{}, r.report(ctx, &cm, err) // want "ReportReconciler/requeue-error"
	}
	return ctrl.Result{}, r.report(ctx, &cm, nil)
}

func (r *ReportReconciler) label(ctx context.Context, cm *corev1.ConfigMap) error {
	cm.Labels = map[string]string{"seen": "yes"}
	return r.Update(ctx, cm) // want "ReportReconciler/write-always"
}

// report records the outcome in an annotation and hands back the failure
// it was handed, or its own write's.
func (r *ReportReconciler) report(ctx context.Context, cm *corev1.ConfigMap, failure error) error {
	outcome := "ok"
	if failure != nil {
		outcome = failure.Error()
	}
	cm.Annotations = map[string]string{"outcome": outcome}
	if err := r.Update(ctx, cm); err != nil { // want "ReportReconciler/write-always"
		return err
	}
	return failure
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ReportReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("report").For(&corev1.ConfigMap{}).Complete(r)
}

// OutcomeReconciler labels each Secret, every return handing its result
// to one helper that records the outcome. The helper fails on its own
// too (its write), so it maps no failure only: still, a failure the
// caller found and handed it is the caller's, cited where it is handed.
type OutcomeReconciler struct{ client.Client }

// Reconcile labels the Secret in two steps, then records the outcome.
func (r *OutcomeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OutcomeReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "OutcomeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.mark(ctx, &s, "first"); err != nil {
		return r.outcome(ctx, &s, err)
	}
	if err := r.mark(ctx, &s, "second"); err != nil {
		return r.outcome(ctx, &s, err) // want "OutcomeReconciler/requeue-error"
	}
	return r.outcome(ctx, &s, nil)
}

func (r *OutcomeReconciler) mark(ctx context.Context, s *corev1.Secret, step string) error {
	s.Labels = map[string]string{"step": step}
	return r.Update(ctx, s) // want "OutcomeReconciler/write-always"
}

// outcome records the pass's outcome: its own write's failure, or the
// failure it was handed.
func (r *OutcomeReconciler) outcome(ctx context.Context, s *corev1.Secret, failure error) (ctrl.Result, error) {
	s.Annotations = map[string]string{"failed": "no"}
	if failure != nil {
		s.Annotations["failed"] = "yes"
	}
	if err := r.Update(ctx, s); err != nil { // want "OutcomeReconciler/write-always"
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, failure
}

// SetupWithManager registers the reconciler for Secrets.
func (r *OutcomeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("outcome").For(&corev1.Secret{}).Complete(r)
}
