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

// want-none "CopyReconciler/drift"

// CopyReconciler copies each Secret's data into the ConfigMap of the same
// name, once the ConfigMap is marked ready; it is event-driven once the
// copy is made.
type CopyReconciler struct {
	client.Client
}

// Reconcile reads the Secret, waits for its ConfigMap to be ready and
// copies.
func (r *CopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CopyReconciler/reconcile-entry"
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil { // want "CopyReconciler/reread"
		return result.FailedUnlessGone(ctx, apierrors.IsNotFound(err), err)
	}
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil {
		return result.Failed(ctx, err, "reading the configmap")
	}
	if cm.Annotations["copy.example.com/ready"] != "true" {
		return result.After(ctx, 30*time.Second, "waiting for the configmap") // want "CopyReconciler/requeue-success" "CopyReconciler/trace:return" "CopyReconciler/trace:constant"
	}
	cm.Data = map[string]string{"value": string(secret.Data["value"])}
	if err := r.Update(ctx, cm); err != nil { // want "CopyReconciler/write-always"
		return result.Failed(ctx, err, "copying") // want "CopyReconciler/requeue-error"
	}
	return result.Done()
}

// SetupWithManager registers the reconciler for Secrets.
func (r *CopyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
