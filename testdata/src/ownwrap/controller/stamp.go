// Package controller holds reconcilers that hand their errors back through
// the tree's own wrapper, which keeps nil nil as errors.Wrap does: a
// return of the wrapper's error is a return of the error it wraps.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove" "StampReconciler/condition-types" "StampReconciler/drift"
// want-none "RetireReconciler/finalizer-const" "RetireReconciler/finalizer-add" "RetireReconciler/finalizer-cleanup" "RetireReconciler/finalizer-remove" "RetireReconciler/condition-types" "RetireReconciler/requeue-success" "RetireReconciler/interval-trace"

// stepError names the step of a pass that failed.
type stepError struct {
	step string
	err  error
}

func (e *stepError) Error() string { return e.step + ": " + e.err.Error() }

func (e *stepError) Unwrap() error { return e.err }

// inStep names the step an error came from; nil stays nil.
func inStep(step string, err error) error {
	if err == nil {
		return nil
	}
	return &stepError{step: step, err: err}
}

// StampReconciler stamps each ConfigMap, records the outcome on it, and
// comes back after an hour.
type StampReconciler struct {
	client.Client
}

// Reconcile stamps the ConfigMap and records the outcome.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "StampReconciler/reread"
		return ctrl.Result{}, inStep("read", client.IgnoreNotFound(err))
	}
	return r.record(ctx, &cm, r.stamp(ctx, &cm))
}

// stamp writes the stamp on the ConfigMap.
func (r *StampReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/stamped"] = "true"
	return inStep("stamp", r.Update(ctx, cm)) // want "StampReconciler/write-always"
}

// record labels the ConfigMap with the outcome of the work, hands the
// work's error back, and after a success asks to come back in an hour.
func (r *StampReconciler) record(ctx context.Context, cm *corev1.ConfigMap, workErr error) (ctrl.Result, error) {
	if workErr != nil {
		return ctrl.Result{}, inStep("work", workErr)
	}
	cm.Annotations["example.com/outcome"] = "ok"
	err := r.Update(ctx, cm) // want "StampReconciler/write-always"
	if err != nil {
		return ctrl.Result{}, inStep("record", err) // want "StampReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: time.Hour}, inStep("record", err) // want "StampReconciler/requeue-success" "StampReconciler/trace:return" "StampReconciler/trace:constant"
}

// RetireReconciler labels Secrets with their team, and deletes those
// marked retired.
type RetireReconciler struct {
	client.Client
	Team string
}

// Reconcile relabels the Secret, or deletes it when it is marked retired.
func (r *RetireReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RetireReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "RetireReconciler/reread"
		return ctrl.Result{}, inStep("read", client.IgnoreNotFound(err))
	}
	if s.Labels["example.com/team"] != r.Team { // want "RetireReconciler/drift:compare"
		return ctrl.Result{}, inStep("relabel", r.relabel(ctx, &s)) // want "RetireReconciler/drift:apply"
	}
	if s.Labels["example.com/retired"] == "true" { // want "RetireReconciler/drift:compare"
		return ctrl.Result{}, inStep("retire", r.retire(ctx, &s)) // want "RetireReconciler/drift:apply" "RetireReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// relabel writes the team on a Secret.
func (r *RetireReconciler) relabel(ctx context.Context, s *corev1.Secret) error {
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	s.Labels["example.com/team"] = r.Team
	return r.Update(ctx, s)
}

// retire deletes a Secret marked retired.
func (r *RetireReconciler) retire(ctx context.Context, s *corev1.Secret) error {
	return client.IgnoreNotFound(r.Delete(ctx, s))
}

// SetupWithManager registers the reconciler for Secrets.
func (r *RetireReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
