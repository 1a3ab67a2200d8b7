// Package controller holds two reconcilers that remove two finalizers, the
// one of before and the current one, and add neither. The Tag's webhook
// adds the current one, which is the controller's; nothing in the tree
// adds the Badge's, so which of the two its cleanup waits on is not
// settled, never the first one removed.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/offpathfinalizer/api/v1"
)

// want-none "TagReconciler/condition-types" "TagReconciler/requeue-success" "TagReconciler/interval-trace" "TagReconciler/drift"

// TagReconciler deletes a Tag's ConfigMap when the Tag goes.
type TagReconciler struct{ client.Client }

// Reconcile waits for the Tag's deletion.
func (r *TagReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TagReconciler/reconcile-entry"
	var tag v1.Tag
	if err := r.Get(ctx, req.NamespacedName, &tag); err != nil { // want "TagReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if tag.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.finalize(ctx, &tag) // want "TagReconciler/requeue-error"
}

// finalize deletes the Tag's ConfigMap and drops both finalizers.
func (r *TagReconciler) finalize(ctx context.Context, tag *v1.Tag) error { // want "TagReconciler/finalizer-cleanup"
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: tag.Namespace, Name: tag.Name}}
	if err := r.Delete(ctx, cm); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	controllerutil.RemoveFinalizer(tag, v1.LegacyFinalizer)
	controllerutil.RemoveFinalizer(tag, v1.CurrentFinalizer) // want "TagReconciler/finalizer-remove"
	return r.Update(ctx, tag)
}

// SetupWithManager registers the reconciler for Tags.
func (r *TagReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Tag{}).Complete(r)
}
