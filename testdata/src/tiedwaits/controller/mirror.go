// Package controller holds reconcilers whose success path waits at more
// than one place and whose steady state is event-driven: where the waits
// stand one after another, or in the cases of one switch, the code does
// not say which of them is the requeue a success makes.
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

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types"
// want-none "MirrorReconciler/requeue-success" "MirrorReconciler/requeue-error"

// settle is how long the reconciler gives what it has just written. Both
// waits wait for it: whichever is the success's requeue, no field of the
// object sets what it waits for, and the interval trace says so, from the
// first.
const settle = 10 * time.Second // want "MirrorReconciler/trace:constant"

// mirroredLabel names, on a Secret, the ConfigMap it mirrors.
const mirroredLabel = "example.com/mirrored"

// MirrorReconciler keeps a Secret beside every ConfigMap, then labels the
// Secret: it waits after each write, one after the other.
type MirrorReconciler struct {
	client.Client
}

// Reconcile creates the ConfigMap's Secret when it is missing, then labels
// the Secret.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var secret corev1.Secret
	err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name + "-mirror"}, &secret)
	if apierrors.IsNotFound(err) {
		secret = corev1.Secret{
			ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-mirror"},
			StringData: cm.Data,
		}
		if err := r.Create(ctx, &secret); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: settle}, nil // want "MirrorReconciler/trace:return"
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	if secret.Labels[mirroredLabel] != cm.Name {
		patch := client.MergeFrom(secret.DeepCopy())
		if secret.Labels == nil {
			secret.Labels = map[string]string{}
		}
		secret.Labels[mirroredLabel] = cm.Name
		if err := r.Patch(ctx, &secret, patch); err != nil { // want "MirrorReconciler/drift:unsettled"
			return ctrl.Result{}, err // the failure last before the final return, not before the first wait: not settled
		}
		return ctrl.Result{RequeueAfter: settle}, nil // the second wait: not settled, cited
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps and the Secrets
// they own.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
