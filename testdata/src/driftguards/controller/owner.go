package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "OwnerReconciler/finalizer-const" "OwnerReconciler/finalizer-add" "OwnerReconciler/finalizer-cleanup" "OwnerReconciler/finalizer-remove" "OwnerReconciler/condition-types" "OwnerReconciler/requeue-success" "OwnerReconciler/interval-trace" "OwnerReconciler/drift"

// ownerKey names the controller a Secret belongs to.
const ownerKey = "example.com/owner"

// OwnerReconciler stamps the Secrets that name it as their owner: the
// test that leaves is taken where the owner differs from its name, so the
// write after it runs where they are equal, applying no difference.
type OwnerReconciler struct {
	client.Client
	Name string
}

// Reconcile stamps a Secret of this controller's.
func (r *OwnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OwnerReconciler/reconcile-entry"
	s := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, s); err != nil { // want "OwnerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !r.owns(s) {
		return ctrl.Result{}, nil
	}
	if s.Annotations == nil {
		s.Annotations = map[string]string{}
	}
	s.Annotations["example.com/stamped"] = "true"
	if err := r.Update(ctx, s); err != nil {
		return ctrl.Result{}, err // want "OwnerReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// owns reports whether a Secret names this controller as its owner.
func (r *OwnerReconciler) owns(s *corev1.Secret) bool {
	if s.Annotations[ownerKey] == r.Name {
		return true
	}
	return false
}

// SetupWithManager registers the reconciler for Secrets.
func (r *OwnerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("owner").For(&corev1.Secret{}).Complete(r)
}
