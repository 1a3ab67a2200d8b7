package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "InlineStampReconciler/finalizer-const" "InlineStampReconciler/finalizer-add" "InlineStampReconciler/finalizer-cleanup" "InlineStampReconciler/finalizer-remove" "InlineStampReconciler/condition-types" "InlineStampReconciler/requeue-success" "InlineStampReconciler/interval-trace" "InlineStampReconciler/drift"

// InlineStampReconciler is StampReconciler handing back the status
// write's error where it is made, in the final return: that failure is
// still the report's, and the work's is the one returned before it.
type InlineStampReconciler struct {
	client.Client
}

// Reconcile looks at one Bundle.
func (r *InlineStampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "InlineStampReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "InlineStampReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-inline"}, Data: b.Spec.Data}
	if err := r.Create(ctx, cm); client.IgnoreAlreadyExists(err) != nil { // want "InlineStampReconciler/write-always"
		return ctrl.Result{}, err // want "InlineStampReconciler/requeue-error"
	}
	b.Status.SeenVersion = cm.ResourceVersion
	return ctrl.Result{}, r.saveStatus(ctx, b)
}

// saveStatus writes the Bundle's status.
func (r *InlineStampReconciler) saveStatus(ctx context.Context, b *v1.Bundle) error {
	return r.Status().Update(ctx, b) // want "InlineStampReconciler/write-always"
}

// SetupWithManager registers the reconciler for Bundles.
func (r *InlineStampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("inlinestamp").For(&v1.Bundle{}).Complete(r)
}
