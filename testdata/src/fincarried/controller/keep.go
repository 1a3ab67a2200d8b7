package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// keepFinalizer holds a Secret until its mirror is gone.
const keepFinalizer = "fincarried.example.com/keep" // want "KeepReconciler/finalizer-const"

// KeepReconciler's deletion branch runs release, which deletes the mirror,
// removes the finalizer and then forgets the Secret in the reconciler's
// own table: two pieces of work around the removal, so release is the
// cleanup, not a wrapper of one call.
type KeepReconciler struct {
	client.Client
	mirrored map[string]bool
}

// SetupWithManager registers the reconciler for Secrets.
func (r *KeepReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// Reconcile adds the finalizer and records the mirror, or on deletion runs
// release.
func (r *KeepReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "KeepReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "KeepReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if s.DeletionTimestamp != nil {
		return r.release(ctx, &s)
	}
	if controllerutil.AddFinalizer(&s, keepFinalizer) { // want "KeepReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &s) // want "KeepReconciler/requeue-error"
	}
	r.mirrored[s.Name] = true
	return ctrl.Result{}, nil
}

// release deletes the mirror, drops the finalizer and forgets the Secret.
func (r *KeepReconciler) release(ctx context.Context, s *corev1.Secret) (ctrl.Result, error) { // want "KeepReconciler/finalizer-cleanup"
	if err := r.dropMirror(ctx, s); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(s, keepFinalizer) // want "KeepReconciler/finalizer-remove"
	if err := r.Update(ctx, s); err != nil {
		return ctrl.Result{}, err
	}
	r.forget(s.Name)
	return ctrl.Result{}, nil
}

// dropMirror deletes the Secret's mirror.
func (r *KeepReconciler) dropMirror(ctx context.Context, s *corev1.Secret) error {
	m := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: s.Name + "-mirror", Namespace: s.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, m))
}

// forget drops the Secret from the table of mirrored ones.
func (r *KeepReconciler) forget(name string) {
	delete(r.mirrored, name)
}
