package controller

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "BundleReconciler/finalizer-const" "BundleReconciler/finalizer-add" "BundleReconciler/finalizer-cleanup" "BundleReconciler/finalizer-remove" "BundleReconciler/condition-types" "BundleReconciler/requeue-success" "BundleReconciler/interval-trace"

// BundleReconciler makes a Bundle's ConfigMap when the live one differs
// from the Bundle's data: the helper it calls is handed the Bundle alone,
// but builds and applies a ConfigMap, which applies the difference.
type BundleReconciler struct {
	client.Client
}

// Reconcile applies the Bundle's ConfigMap when it drifted.
func (r *BundleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BundleReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "BundleReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	live := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, live); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if reflect.DeepEqual(live.Data, b.Spec.Data) { // want "BundleReconciler/drift:compare"
		return ctrl.Result{}, nil
	}
	if err := r.applyConfigMap(ctx, b); err != nil { // want "BundleReconciler/drift:apply"
		return ctrl.Result{}, err // want "BundleReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// applyConfigMap builds a Bundle's ConfigMap and applies it.
func (r *BundleReconciler) applyConfigMap(ctx context.Context, b *v1.Bundle) error {
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name},
		Data:       b.Spec.Data,
	}
	return r.Patch(ctx, cm, client.Apply, client.FieldOwner("bundle"), client.ForceOwnership) // want "BundleReconciler/drift:apply"
}

// SetupWithManager registers the reconciler for Bundles.
func (r *BundleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("bundle").For(&v1.Bundle{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
