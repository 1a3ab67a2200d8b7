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

// want-none "BadgeReconciler/condition-types" "BadgeReconciler/requeue-success" "BadgeReconciler/interval-trace" "BadgeReconciler/drift"
// want-none "BadgeReconciler/finalizer-const" "BadgeReconciler/finalizer-add" "BadgeReconciler/finalizer-remove"

// BadgeReconciler deletes a Badge's Secret when the Badge goes.
type BadgeReconciler struct{ client.Client }

// Reconcile waits for the Badge's deletion.
func (r *BadgeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BadgeReconciler/reconcile-entry"
	var badge v1.Badge
	if err := r.Get(ctx, req.NamespacedName, &badge); err != nil { // want "BadgeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if badge.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.finalize(ctx, &badge) // want "BadgeReconciler/requeue-error"
}

// finalize deletes the Badge's Secret and drops both finalizers.
func (r *BadgeReconciler) finalize(ctx context.Context, badge *v1.Badge) error { // want "BadgeReconciler/finalizer-cleanup"
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: badge.Namespace, Name: badge.Name}}
	if err := r.Delete(ctx, s); err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	controllerutil.RemoveFinalizer(badge, v1.LegacyFinalizer)
	controllerutil.RemoveFinalizer(badge, v1.CurrentFinalizer)
	return r.Update(ctx, badge)
}

// SetupWithManager registers the reconciler for Badges.
func (r *BadgeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Badge{}).Complete(r)
}
