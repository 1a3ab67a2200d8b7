package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove" "StampReconciler/condition-types" "StampReconciler/requeue-success" "StampReconciler/interval-trace" "StampReconciler/drift"

// StampReconciler makes a Bundle's ConfigMap, then records its version in
// the Bundle's status and hands back that write's error: the final
// return's failure is the report's, after the work succeeded, so the
// work's failure is the one returned before it.
type StampReconciler struct {
	client.Client
}

// Reconcile looks at one Bundle.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "StampReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return r.sync(ctx, b)
}

// sync makes the ConfigMap and stamps its version on the Bundle.
func (r *StampReconciler) sync(ctx context.Context, b *v1.Bundle) (ctrl.Result, error) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-stamp"}, Data: b.Spec.Data}
	if err := r.Create(ctx, cm); client.IgnoreAlreadyExists(err) != nil { // want "StampReconciler/write-always"
		return ctrl.Result{}, err // want "StampReconciler/requeue-error"
	}
	b.Status.SeenVersion = cm.ResourceVersion
	err := r.stamp(ctx, b)
	return ctrl.Result{}, err
}

// stamp writes the Bundle's status.
func (r *StampReconciler) stamp(ctx context.Context, b *v1.Bundle) error {
	return r.Status().Update(ctx, b) // want "StampReconciler/write-always"
}

// SetupWithManager registers the reconciler for Bundles.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("stamp").For(&v1.Bundle{}).Complete(r)
}
