package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "EitherReconciler/finalizer-cleanup" "EitherReconciler/condition-types" "EitherReconciler/requeue-success" "EitherReconciler/interval-trace" "EitherReconciler/drift"

// eitherFinalizer holds a Secret until its ConfigMaps are released or
// deleted.
const eitherFinalizer = "finwork.example.com/either" // want "EitherReconciler/finalizer-const"

// EitherReconciler's deletion branch runs one of two cleanups, as a label
// of the Secret decides: it releases the Secret's ConfigMaps (unlabels
// them) or deletes them. Each removes the finalizer when done.
type EitherReconciler struct {
	client.Client
}

// Reconcile cleans up a Secret being deleted, and adds the finalizer to
// one that is not.
func (r *EitherReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "EitherReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "EitherReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if s.DeletionTimestamp != nil {
		if s.Labels["finwork.example.com/keep"] == "true" {
			return ctrl.Result{}, r.release(ctx, &s)
		} else {
			return ctrl.Result{}, r.deleteConfigMaps(ctx, &s)
		}
	}
	if controllerutil.AddFinalizer(&s, eitherFinalizer) { // want "EitherReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &s) // want "EitherReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// release unlabels the Secret's ConfigMaps, then lets it go.
func (r *EitherReconciler) release(ctx context.Context, s *corev1.Secret) error {
	var cms corev1.ConfigMapList
	if err := r.List(ctx, &cms, client.InNamespace(s.Namespace), client.MatchingLabels{"owner": s.Name}); err != nil {
		return err
	}
	for i := range cms.Items {
		delete(cms.Items[i].Labels, "owner")
		if err := r.Update(ctx, &cms.Items[i]); err != nil {
			return err
		}
	}
	controllerutil.RemoveFinalizer(s, eitherFinalizer) // want "EitherReconciler/finalizer-remove"
	return r.Update(ctx, s)
}

// deleteConfigMaps deletes the Secret's ConfigMaps, then lets it go.
func (r *EitherReconciler) deleteConfigMaps(ctx context.Context, s *corev1.Secret) error {
	if err := r.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace(s.Namespace), client.MatchingLabels{"owner": s.Name}); err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(s, eitherFinalizer)
	return r.Update(ctx, s)
}

// SetupEither registers the reconciler for Secrets.
func SetupEither(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(&EitherReconciler{Client: mgr.GetClient()})
}
