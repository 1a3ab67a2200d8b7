// Package controller holds a reconciler whose deletion branch first looks
// up the children it will delete (handed the object), then deletes them
// (handed what the lookup found): the deletion is the cleanup, the lookup
// is not.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// finalizer guards the Secrets a ConfigMap owns by label.
const finalizer = "finlookup.example.com/secrets" // want "finalizer-const"

// LookupReconciler keeps a finalizer on ConfigMaps until their Secrets are
// gone.
type LookupReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or on deletion removes the Secrets and
// then the finalizer.
func (r *LookupReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		owned, err := r.ownedSecrets(ctx, &cm) // decoy: finalizer-cleanup (a lookup)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.deleteAll(ctx, owned); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&cm, finalizer) // want "finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &cm)
	}
	if controllerutil.AddFinalizer(&cm, finalizer) { // want "finalizer-add"
		if err := r.Update(ctx, &cm); err != nil {
			return ctrl.Result{}, err // want "requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// ownedSecrets lists the Secrets labelled with the ConfigMap's name.
func (r *LookupReconciler) ownedSecrets(ctx context.Context, cm *corev1.ConfigMap) ([]corev1.Secret, error) {
	var list corev1.SecretList
	if err := r.List(ctx, &list, client.InNamespace(cm.Namespace), client.MatchingLabels{"owner": cm.Name}); err != nil {
		return nil, err
	}
	return list.Items, nil
}

// deleteAll deletes the Secrets.
func (r *LookupReconciler) deleteAll(ctx context.Context, secrets []corev1.Secret) error { // want "finalizer-cleanup"
	for i := range secrets {
		if err := r.Delete(ctx, &secrets[i]); err != nil {
			return client.IgnoreNotFound(err)
		}
	}
	return nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *LookupReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
