// Package controller holds the Vault reconciler, which keeps its finalizer
// through a helper that takes any object.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	vaultv1 "example.com/fixtures/accessorfin/api/v1"
	"example.com/fixtures/accessorfin/internal/finutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

const (
	// vaultFinalizer holds a Vault until its Secret is unsealed.
	vaultFinalizer = "vaults.example.com/unseal" // want "finalizer-const"

	// sealFinalizer holds a sealed Secret while its Vault lives.
	sealFinalizer = "vaults.example.com/sealed"
)

// VaultReconciler seals the Secret each Vault names.
type VaultReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *VaultReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&vaultv1.Vault{}).Complete(r)
}

// Reconcile seals the Secret, or unseals it once the Vault is deleted.
func (r *VaultReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	vault := &vaultv1.Vault{}
	if err := r.Get(ctx, req.NamespacedName, vault); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	written, err := finutil.Ensure(ctx, r.Client, vault, vaultFinalizer)
	if err != nil || written {
		return ctrl.Result{}, err
	}
	if !vault.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.unseal(ctx, vault)
	}
	return ctrl.Result{}, r.seal(ctx, vault) // want "requeue-error"
}

// seal puts the seal finalizer on the named Secret.
func (r *VaultReconciler) seal(ctx context.Context, vault *vaultv1.Vault) error {
	secret := &corev1.Secret{}
	if err := r.Get(ctx, types.NamespacedName{Namespace: vault.Namespace, Name: vault.Spec.SecretName}, secret); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !controllerutil.AddFinalizer(secret, sealFinalizer) {
		return nil
	}
	return r.Update(ctx, secret)
}

// unseal frees the Secret, then lets the Vault go.
func (r *VaultReconciler) unseal(ctx context.Context, vault *vaultv1.Vault) error { // want "finalizer-cleanup"
	secret := &corev1.Secret{}
	err := r.Get(ctx, types.NamespacedName{Namespace: vault.Namespace, Name: vault.Spec.SecretName}, secret)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if err == nil {
		if err := finutil.Release(ctx, r.Client, secret, sealFinalizer); err != nil {
			return err
		}
	}
	return finutil.Release(ctx, r.Client, vault, vaultFinalizer)
}
