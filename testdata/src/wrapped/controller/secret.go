// Package controller registers its reconciler wrapped by a library (the
// registered value is the library's type, which calls the tree's), and an
// object reconciler adapted by controller-runtime: its Reconcile takes the
// object, which the library's adapter reads by the request's key.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"example.com/fixtures/wraplib/limit"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"
// want-none "ConfigMapStamper/requeue-error"

// SecretReconciler stamps every Secret it sees.
type SecretReconciler struct {
	client.Client
}

// Reconcile stamps one Secret.
func (r *SecretReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SecretReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "SecretReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	s.Annotations = map[string]string{"example.com/seen": "yes"}
	if err := r.Update(ctx, &s); err != nil { // want "SecretReconciler/write-always"
		return ctrl.Result{}, err // want "SecretReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// ConfigMapStamper is an object reconciler: controller-runtime reads the
// ConfigMap and hands it over.
type ConfigMapStamper struct{}

// Reconcile is handed the ConfigMap itself.
func (s *ConfigMapStamper) Reconcile(ctx context.Context, cm *corev1.ConfigMap) (reconcile.Result, error) { // want "ConfigMapStamper/reconcile-entry"
	return reconcile.Result{}, nil
}

// Setup registers the Secret reconciler, wrapped, and the stamper.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(limit.New("secrets", &SecretReconciler{Client: mgr.GetClient()})); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("stamper").Complete(reconcile.AsReconciler[*corev1.ConfigMap](mgr.GetClient(), &ConfigMapStamper{})) // want "ConfigMapStamper/reread"
}
