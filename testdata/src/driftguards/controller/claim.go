package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "ClaimReconciler/finalizer-const" "ClaimReconciler/finalizer-add" "ClaimReconciler/finalizer-cleanup" "ClaimReconciler/finalizer-remove" "ClaimReconciler/condition-types" "ClaimReconciler/requeue-success" "ClaimReconciler/interval-trace" "ClaimReconciler/drift"

// ClaimReconciler creates a Bundle's ConfigMap on every pass and, when the
// create finds it already there (every pass after the first), reads it and
// patches it whole. On a pass of an unchanged Bundle the ConfigMap is
// there, made by the pass before: the create finds its name taken and the
// patch runs, every pass, with no comparison.
type ClaimReconciler struct {
	client.Client
}

// Reconcile keeps the Bundle's ConfigMap.
func (r *ClaimReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ClaimReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "ClaimReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.claim(ctx, b); err != nil {
		return ctrl.Result{}, err // want "ClaimReconciler/requeue-error"
	}
	b.Status.SeenVersion = "claimed"
	return ctrl.Result{}, r.Status().Update(ctx, b) // want "ClaimReconciler/write-always"
}

// claim creates the ConfigMap, or patches the one already there.
func (r *ClaimReconciler) claim(ctx context.Context, b *v1.Bundle) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-claim"}, Data: b.Spec.Data}
	if err := r.Create(ctx, cm); err != nil { // want "ClaimReconciler/write-always"
		if apierrors.IsAlreadyExists(err) {
			var live corev1.ConfigMap
			if err := r.Get(ctx, client.ObjectKeyFromObject(cm), &live); err != nil {
				return err
			}
			if err := r.Patch(ctx, cm, client.Merge); err != nil { // want "ClaimReconciler/write-always"
				return err
			}
		} else {
			return err
		}
	}
	return nil
}

// SetupWithManager registers the reconciler for Bundles.
func (r *ClaimReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("claim").For(&v1.Bundle{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
