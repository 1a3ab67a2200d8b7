// Package controller holds a reconciler that creates a child Secret for
// each ConfigMap and, once it has created one, looks again a little later:
// its only timed requeue waits on the child, and the steady state is
// event-driven.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// childWait is how long the reconciler gives a Secret it has just created.
const childWait = 30 * time.Second // want "trace:constant"

// MirrorReconciler keeps a Secret beside every ConfigMap.
type MirrorReconciler struct {
	client.Client
}

// Reconcile creates the ConfigMap's Secret when it is missing.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var secret corev1.Secret
	err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name + "-mirror"}, &secret) // decoy: reread (the child)
	if apierrors.IsNotFound(err) {
		secret = corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-mirror"},
			StringData: cm.Data,
		}
		if err := r.Create(ctx, &secret); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: childWait}, nil // want "requeue-success" "trace:return"
	}
	if err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps and the Secrets
// they own.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
