package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// drainFinalizer holds a Secret until its ServiceAccount is gone.
const drainFinalizer = "example.com/drain" // want "DrainReconciler/finalizer-const"

// want-none "DrainReconciler/condition-types" "DrainReconciler/drift"

// DrainReconciler keeps a ServiceAccount beside each Secret and, when the
// Secret is deleted, marks the account and waits for it to go before it
// lets the Secret go. Both the deletion branch and the live path wait
// after a write; the live path's wait is the success requeue.
type DrainReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, makes the account, and drains it on
// deletion.
func (r *DrainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DrainReconciler/reconcile-entry"
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil { // want "DrainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !secret.DeletionTimestamp.IsZero() {
		return r.drain(ctx, secret)
	}
	if controllerutil.AddFinalizer(secret, drainFinalizer) { // want "DrainReconciler/finalizer-add"
		if err := r.Update(ctx, secret); err != nil {
			return ctrl.Result{}, err
		}
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: secret.Namespace, Name: secret.Name}}
	err := r.Get(ctx, client.ObjectKeyFromObject(sa), sa)
	if apierrors.IsNotFound(err) {
		if err := r.Create(ctx, sa); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: 2 * time.Second}, nil // want "DrainReconciler/requeue-success" "DrainReconciler/trace:return" "DrainReconciler/trace:constant"
	}
	if err != nil {
		return ctrl.Result{}, err // want "DrainReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// drain deletes the account and waits for it to go, then drops the
// finalizer.
func (r *DrainReconciler) drain(ctx context.Context, secret *corev1.Secret) (ctrl.Result, error) { // want "DrainReconciler/finalizer-cleanup"
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(secret), sa); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}
	if sa.UID != "" {
		if err := r.Delete(ctx, sa); client.IgnoreNotFound(err) != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil
	}
	controllerutil.RemoveFinalizer(secret, drainFinalizer) // want "DrainReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, secret)
}

// SetupWithManager registers the reconciler for Secrets.
func (r *DrainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("drain").For(&corev1.Secret{}).Owns(&corev1.ServiceAccount{}).Complete(r)
}
