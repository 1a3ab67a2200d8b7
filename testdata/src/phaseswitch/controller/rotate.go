// Package controller holds a reconciler whose pass runs one phase
// function, chosen by a switch, into one result variable it then hands
// back: the result is the one call's of the phase taken, so the requeue a
// success makes is at the phase's own return, not at the return that hands
// the variable back.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "RotateReconciler/finalizer-const" "RotateReconciler/finalizer-add" "RotateReconciler/finalizer-cleanup" "RotateReconciler/finalizer-remove" "RotateReconciler/condition-types" "RotateReconciler/drift"

const rotatedKey = "rotate.example.com/rotated"

// RotateReconciler stamps each Secret once, then checks it every hour.
type RotateReconciler struct {
	client.Client
}

// Reconcile runs the phase the Secret is in.
func (r *RotateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RotateReconciler/reconcile-entry"
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil { // want "RotateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var result ctrl.Result
	var err error
	switch secret.Annotations[rotatedKey] {
	case "":
		result, err = r.stamp(ctx, secret)
	default:
		result, err = r.check(ctx, secret)
	}
	if err != nil {
		return ctrl.Result{}, err // want "RotateReconciler/requeue-error"
	}
	return result, nil
}

// stamp marks the Secret rotated.
func (r *RotateReconciler) stamp(ctx context.Context, secret *corev1.Secret) (ctrl.Result, error) {
	if secret.Annotations == nil {
		secret.Annotations = map[string]string{}
	}
	secret.Annotations[rotatedKey] = "true"
	if err := r.Update(ctx, secret); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// check looks at the Secret again in an hour.
func (r *RotateReconciler) check(ctx context.Context, secret *corev1.Secret) (ctrl.Result, error) {
	if len(secret.Data) == 0 {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: time.Hour}, nil // want "RotateReconciler/requeue-success" "RotateReconciler/trace:return" "RotateReconciler/trace:constant"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *RotateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
