// Package controller holds reconcilers with no "is being deleted" branch:
// the deletion path is the code after an if that returns while the object
// is not being deleted (its DeletionTimestamp zero, or nil). The cleanup
// and the finalizer's removal there are the deletion branch's.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// secretFinalizer holds a Secret until its copies are gone.
const secretFinalizer = "finfall.example.com/copies" // want "SecretReconciler/finalizer-const"

// mapFinalizer holds a ConfigMap until its Secrets are gone.
const mapFinalizer = "finfall.example.com/secrets" // want "MapReconciler/finalizer-const"

// SecretReconciler removes a Secret's copies when it goes: the deletion
// path falls through an if on DeletionTimestamp.IsZero().
type SecretReconciler struct {
	client.Client
}

// Reconcile adds the finalizer while the Secret lives; otherwise deletes
// its copies and removes the finalizer.
func (r *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SecretReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "SecretReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if s.DeletionTimestamp.IsZero() {
		// decoy: no return, so the code after it runs either way
		log.FromContext(ctx).Info("live")
	}
	if s.DeletionTimestamp.IsZero() {
		if controllerutil.AddFinalizer(&s, secretFinalizer) { // want "SecretReconciler/finalizer-add"
			if err := r.Update(ctx, &s); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if !controllerutil.ContainsFinalizer(&s, secretFinalizer) {
		return ctrl.Result{}, nil
	}
	if err := r.deleteCopies(ctx, &s); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(&s, secretFinalizer) // want "SecretReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, &s)             // want "SecretReconciler/requeue-error"
}

// deleteCopies deletes the Secrets labelled as copies of s.
func (r *SecretReconciler) deleteCopies(ctx context.Context, s *corev1.Secret) error { // want "SecretReconciler/finalizer-cleanup"
	return client.IgnoreNotFound(r.DeleteAllOf(ctx, &corev1.Secret{}, client.InNamespace(s.Namespace), client.MatchingLabels{"copy-of": s.Name}))
}

// SetupWithManager registers the reconciler for Secrets.
func (r *SecretReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// MapReconciler removes a ConfigMap's Secrets when it goes: the deletion
// path falls through an if on GetDeletionTimestamp() == nil, and its
// first call is a predicate.
type MapReconciler struct {
	client.Client
}

// Reconcile adds the finalizer while the ConfigMap lives; otherwise
// deletes its Secrets and removes the finalizer.
func (r *MapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MapReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "MapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.GetDeletionTimestamp() == nil {
		if !controllerutil.ContainsFinalizer(cm, mapFinalizer) {
			controllerutil.AddFinalizer(cm, mapFinalizer) // want "MapReconciler/finalizer-add"
			return ctrl.Result{}, r.Update(ctx, cm)
		}
		return ctrl.Result{}, nil
	}
	if !holds(cm) { // decoy: finalizer-cleanup (a predicate)
		return ctrl.Result{}, nil
	}
	if err := r.release(ctx, cm); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(cm, mapFinalizer) // want "MapReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, cm)          // want "MapReconciler/requeue-error"
}

// holds says whether the ConfigMap still carries the finalizer.
func holds(cm *corev1.ConfigMap) bool {
	return controllerutil.ContainsFinalizer(cm, mapFinalizer)
}

// release deletes the Secrets labelled with the ConfigMap's name.
func (r *MapReconciler) release(ctx context.Context, cm *corev1.ConfigMap) error { // want "MapReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.Secret{}, client.InNamespace(cm.Namespace), client.MatchingLabels{"owner": cm.Name})
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MapReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
