// Package controller holds two reconcilers registered through the
// operator's own layer (ctrlutil): one with its builder, one with its
// setup helper. ServiceAuditor has a Reconcile but is never registered.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/ownbuilder/ctrlutil"
)

// want-none "SecretReconciler/finalizer-const" "SecretReconciler/finalizer-add" "SecretReconciler/finalizer-cleanup" "SecretReconciler/finalizer-remove" "SecretReconciler/condition-types" "SecretReconciler/requeue-success" "SecretReconciler/interval-trace" "SecretReconciler/drift"
// want-none "ConfigMapReconciler/finalizer-const" "ConfigMapReconciler/finalizer-add" "ConfigMapReconciler/finalizer-cleanup" "ConfigMapReconciler/finalizer-remove" "ConfigMapReconciler/condition-types" "ConfigMapReconciler/requeue-success" "ConfigMapReconciler/interval-trace" "ConfigMapReconciler/drift"

// SecretReconciler stamps Secrets.
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

// SetupWithManager registers the reconciler with the operator's builder.
func (r *SecretReconciler) SetupWithManager(ctx context.Context, mgr ctrl.Manager) error {
	return ctrlutil.NewControllerManagedBy(mgr).
		For(&corev1.Secret{}).
		Owns(&corev1.ConfigMap{}).
		Complete(ctx, r)
}

// ConfigMapReconciler stamps ConfigMaps.
type ConfigMapReconciler struct {
	client.Client
}

// Reconcile stamps one ConfigMap.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm.Annotations = map[string]string{"example.com/seen": "yes"}
	if err := r.Update(ctx, &cm); err != nil { // want "ConfigMapReconciler/write-always"
		return ctrl.Result{}, err // want "ConfigMapReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// ServiceAuditor would audit Services; nothing registers it.
type ServiceAuditor struct {
	client.Client
}

// Reconcile reads one Service.
func (a *ServiceAuditor) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var svc corev1.Service
	return ctrl.Result{}, a.Get(ctx, req.NamespacedName, &svc)
}

// Setup registers both reconcilers.
func Setup(ctx context.Context, mgr ctrl.Manager) error {
	if err := (&SecretReconciler{Client: mgr.GetClient()}).SetupWithManager(ctx, mgr); err != nil {
		return err
	}
	_ = &ServiceAuditor{Client: mgr.GetClient()}
	return ctrlutil.Setup(mgr, &corev1.ConfigMap{}, &ConfigMapReconciler{Client: mgr.GetClient()})
}
