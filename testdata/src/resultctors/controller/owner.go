package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/resultctors/result"
)

// want-none "OwnerReconciler/drift"

const (
	ownerPoll  = 10 * time.Minute // want "OwnerReconciler/trace:constant"
	ownerRetry = 30 * time.Second
)

// OwnerReconciler marks each Secret with its owner; every return hands
// back what a result handler, made at the top of the pass, holds.
type OwnerReconciler struct {
	client.Client
}

// Reconcile reads the Secret, marks it and polls.
func (r *OwnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OwnerReconciler/reconcile-entry"
	h := result.NewHandler(ownerPoll, ownerRetry)
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil { // want "OwnerReconciler/reread"
		if apierrors.IsNotFound(err) {
			return h.Stop()
		}
		return h.Retry(err)
	}
	secret.Annotations = map[string]string{"owner.example.com/marked": "true"}
	if err := r.Update(ctx, secret); err != nil { // want "OwnerReconciler/write-always"
		return h.Retry(err) // want "OwnerReconciler/requeue-error"
	}
	return h.Poll() // want "OwnerReconciler/requeue-success" "OwnerReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *OwnerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
