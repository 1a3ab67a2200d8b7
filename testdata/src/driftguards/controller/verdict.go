package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "VerdictReconciler/finalizer-const" "VerdictReconciler/finalizer-add" "VerdictReconciler/finalizer-cleanup" "VerdictReconciler/finalizer-remove" "VerdictReconciler/condition-types" "VerdictReconciler/requeue-success" "VerdictReconciler/interval-trace"

// compareFunc says what of required a live object lacks: the object to
// write and whether it differs.
type compareFunc[T client.Object] func(required, existing T) (T, bool)

// VerdictReconciler gives each ServiceAccount a Secret through a generic
// applier that updates the live Secret only when the compare function it
// is handed says the two differ. The function is a value: where drift is
// compared is not settled, and never "none".
type VerdictReconciler struct {
	client.Client
}

// Reconcile keeps the ServiceAccount's Secret.
func (r *VerdictReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "VerdictReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "VerdictReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	required := &corev1.Secret{}
	required.Namespace, required.Name = sa.Namespace, sa.Name+"-token"
	required.StringData = map[string]string{"owner": sa.Name}
	return ctrl.Result{}, applyObject(ctx, r.Client, required, &corev1.Secret{}, sameData) // want "VerdictReconciler/requeue-error"
}

// applyObject creates required when it is missing and updates the live
// object when compare finds it differs.
func applyObject[T client.Object](ctx context.Context, c client.Client, required, existing T, compare compareFunc[T]) error {
	if err := c.Get(ctx, client.ObjectKeyFromObject(required), existing); err != nil {
		if !apierrors.IsNotFound(err) {
			return err
		}
		return c.Create(ctx, required)
	}
	updated, modified := compare(required, existing)
	if !modified {
		return nil
	}
	return c.Update(ctx, updated) // want "VerdictReconciler/drift:unsettled"
}

// sameData copies the required data onto the live Secret and says whether
// it changed anything.
func sameData(required, existing *corev1.Secret) (*corev1.Secret, bool) {
	if existing.StringData["owner"] == required.StringData["owner"] {
		return existing, false
	}
	existing.StringData = required.StringData
	return existing, true
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *VerdictReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("verdict").For(&corev1.ServiceAccount{}).Complete(r)
}
