package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ChainReconciler/finalizer-const" "ChainReconciler/finalizer-add" "ChainReconciler/finalizer-cleanup" "ChainReconciler/finalizer-remove" "ChainReconciler/condition-types" "ChainReconciler/requeue-success" "ChainReconciler/interval-trace"

// ChainReconciler applies a Secret for each ServiceAccount in a chain of
// steps, each run when the one before succeeded (if err == nil), and
// patches the status on the way out when it changed. On a pass that
// succeeds every step runs: the apply is made on every pass.
type ChainReconciler struct {
	client.Client
}

// Reconcile runs the steps.
func (r *ChainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (_ ctrl.Result, err error) { // want "ChainReconciler/reconcile-entry"
	sa := &corev1.ServiceAccount{}
	if err = r.Get(ctx, req.NamespacedName, sa); err != nil { // want "ChainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := sa.DeepCopy()
	defer func() {
		if !equality.Semantic.DeepEqual(before.Secrets, sa.Secrets) { // want "ChainReconciler/drift:compare"
			if patchErr := r.Patch(ctx, sa, client.MergeFrom(before)); err == nil {
				err = patchErr
			}
		}
	}()

	var secret *corev1.Secret
	if err == nil {
		secret, err = desiredSecret(sa)
	}
	if err == nil {
		err = r.apply(ctx, secret)
	}
	if err == nil {
		sa.Secrets = []corev1.ObjectReference{{Name: secret.Name}}
	}
	return ctrl.Result{}, err // want "ChainReconciler/requeue-error"
}

// desiredSecret is the Secret a ServiceAccount should have.
func desiredSecret(sa *corev1.ServiceAccount) (*corev1.Secret, error) {
	s := &corev1.Secret{}
	s.Namespace, s.Name = sa.Namespace, sa.Name+"-token"
	s.Type = corev1.SecretTypeServiceAccountToken
	return s, nil
}

// apply server-side applies the Secret.
func (r *ChainReconciler) apply(ctx context.Context, secret *corev1.Secret) error {
	return r.Patch(ctx, secret, client.Apply, client.ForceOwnership, client.FieldOwner("chain")) // want "ChainReconciler/write-always"
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *ChainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("chain").For(&corev1.ServiceAccount{}).Complete(r)
}
