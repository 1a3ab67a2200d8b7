package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "SeenReconciler/finalizer-const" "SeenReconciler/finalizer-add" "SeenReconciler/finalizer-cleanup" "SeenReconciler/finalizer-remove" "SeenReconciler/condition-types" "SeenReconciler/requeue-success" "SeenReconciler/interval-trace" "SeenReconciler/drift"

// SeenReconciler labels a Bundle's ConfigMap once per version of it: the
// test of the Bundle's record of the version last seen is bookkeeping,
// not a comparison of desired with live state.
type SeenReconciler struct {
	client.Client
}

// Reconcile labels a ConfigMap version not seen before.
func (r *SeenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SeenReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "SeenReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	live := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, live); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if b.Status.SeenVersion == live.ResourceVersion {
		return ctrl.Result{}, nil
	}
	if live.Labels == nil {
		live.Labels = map[string]string{}
	}
	live.Labels["example.com/seen"] = "true"
	if err := r.Update(ctx, live); err != nil {
		return ctrl.Result{}, err // want "SeenReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Bundles.
func (r *SeenReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("seen").For(&v1.Bundle{}).Complete(r)
}
