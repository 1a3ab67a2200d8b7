package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/finnoguard/api/v1"
)

// want-none "ShareReconciler/finalizer-const" "ShareReconciler/finalizer-add" "ShareReconciler/finalizer-remove"
// want-none "ShareReconciler/condition-types" "ShareReconciler/requeue-success" "ShareReconciler/interval-trace" "ShareReconciler/drift"

// ShareReconciler keeps no finalizer. On a Share's deletion, which the
// Share answers itself (IsMarkedForDeletion), it deletes the Share's
// Secret: the function run on the primary object's own deletion branch is
// the cleanup, though no finalizer waits for it.
type ShareReconciler struct {
	client.Client
}

// Reconcile looks at one Share.
func (r *ShareReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ShareReconciler/reconcile-entry"
	var s v1.Share
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "ShareReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if s.IsMarkedForDeletion() {
		return ctrl.Result{}, r.onDelete(ctx, req.NamespacedName) // want "ShareReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// onDelete deletes the Share's Secret.
func (r *ShareReconciler) onDelete(ctx context.Context, key types.NamespacedName) error { // want "ShareReconciler/finalizer-cleanup"
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name + "-share"}}
	return client.IgnoreNotFound(r.Delete(ctx, secret))
}

// SetupWithManager registers the reconciler for Shares.
func (r *ShareReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Share{}).Named("share").Complete(r)
}
