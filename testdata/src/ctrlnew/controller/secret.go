// Package controller holds a reconciler wired with controller.New and a
// source.Kind watch instead of the builder, reading through an uncached
// reader held in a field rather than an embedded client.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// want-none "SecretReconciler/finalizer-const" "SecretReconciler/finalizer-add" "SecretReconciler/finalizer-cleanup" "SecretReconciler/finalizer-remove" "SecretReconciler/condition-types" "SecretReconciler/requeue-success" "SecretReconciler/interval-trace"

// rotatedLabel marks a Secret the controller has seen.
const rotatedLabel = "example.com/rotated"

// SecretReconciler labels every Secret once.
type SecretReconciler struct {
	Reader client.Reader
	Writer client.Writer
}

// Reconcile labels one Secret if it is not labelled yet.
func (r *SecretReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "SecretReconciler/reconcile-entry"
	var secret corev1.Secret
	if err := r.Reader.Get(ctx, req.NamespacedName, &secret); err != nil { // want "SecretReconciler/reread"
		if apierrors.IsNotFound(err) {
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, err
	}
	if secret.Labels[rotatedLabel] == "" { // want "SecretReconciler/drift:compare"
		secret.Labels = map[string]string{rotatedLabel: "yes"}
		if err := r.Writer.Update(ctx, &secret); err != nil { // want "SecretReconciler/drift:apply"
			return reconcile.Result{}, err // want "SecretReconciler/requeue-error"
		}
	}
	return reconcile.Result{}, nil
}

// Add registers the reconciler with the manager and watches Secrets.
func Add(mgr manager.Manager) error {
	c, err := controller.New("secret-labeller", mgr, controller.Options{
		Reconciler: &SecretReconciler{Reader: mgr.GetAPIReader(), Writer: mgr.GetClient()},
	})
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.Secret{}, &handler.TypedEnqueueRequestForObject[*corev1.Secret]{}))
}

// NewManager makes the manager, its cache resyncing every ten minutes.
func NewManager(cfg *rest.Config) (manager.Manager, error) {
	period := 10 * time.Minute
	return manager.New(cfg, manager.Options{Cache: cache.Options{SyncPeriod: &period}})
}
