package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "ReleaseReconciler/condition-types" "ReleaseReconciler/requeue-success" "ReleaseReconciler/interval-trace" "ReleaseReconciler/drift"

// releaseFinalizer holds a Secret until its copy is released.
const releaseFinalizer = "finproof.example.com/release" // want "ReleaseReconciler/finalizer-const"

// ReleaseReconciler releases a Secret's copy when the Secret is deleted and
// removes the finalizer; the finalizer is added by the defaulting webhook
// below, which no reconcile runs: the addition is that webhook's, found
// off the reconcile path, never a none.
type ReleaseReconciler struct {
	client.Client
}

// Reconcile releases a deleted Secret's copy.
func (r *ReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReleaseReconciler/reconcile-entry"
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "ReleaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secret.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	if err := r.releaseCopy(ctx, &secret); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(&secret, releaseFinalizer) // want "ReleaseReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, &secret)              // want "ReleaseReconciler/requeue-error"
}

// releaseCopy deletes the copy of a Secret.
func (r *ReleaseReconciler) releaseCopy(ctx context.Context, secret *corev1.Secret) error { // want "ReleaseReconciler/finalizer-cleanup"
	cp := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: secret.Name + "-copy", Namespace: secret.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, cp))
}

// SetupWithManager registers the reconciler for Secrets.
func (r *ReleaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("releaser").Complete(r)
}

// SecretDefaulter adds the finalizer to every Secret as it is admitted.
type SecretDefaulter struct{}

// Default adds the release finalizer.
func (SecretDefaulter) Default(_ context.Context, obj runtime.Object) error {
	if secret, ok := obj.(*corev1.Secret); ok {
		controllerutil.AddFinalizer(secret, releaseFinalizer) // want "ReleaseReconciler/finalizer-add"
	}
	return nil
}
