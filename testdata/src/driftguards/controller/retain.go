package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "RetainReconciler/finalizer-const" "RetainReconciler/finalizer-add" "RetainReconciler/finalizer-cleanup" "RetainReconciler/finalizer-remove" "RetainReconciler/condition-types" "RetainReconciler/requeue-success" "RetainReconciler/interval-trace" "RetainReconciler/drift"

// RetainReconciler moves a ConfigMap's policy on from Delete to Retain,
// skipping those labelled to be left alone: a test of a state (a label
// read through its getter, a field found in one state and moved to
// another), not a comparison of desired with live state.
type RetainReconciler struct {
	client.Client
}

// Reconcile retains what would be deleted.
func (r *RetainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RetainReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "RetainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	content := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: req.Name + "-content"}, content); err != nil {
		return ctrl.Result{}, err
	}
	if content.GetLabels()["example.com/skip"] == "true" {
		return ctrl.Result{}, nil
	}
	if content.Data["policy"] == "Delete" {
		content.Data["policy"] = "Retain"
		if err := r.Update(ctx, content); err != nil {
			return ctrl.Result{}, err // want "RetainReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *RetainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("retain").For(&corev1.ConfigMap{}).Complete(r)
}
