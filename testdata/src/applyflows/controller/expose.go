// Package controller holds a reconciler that keeps a Service and a Secret
// for each ConfigMap through controller-runtime's create-or-update
// helpers: the Service through the alias the root package re-exports,
// called in a closure a retry helper runs, the Secret through the
// helper's own package. Each helper compares the mutated live object with
// what it read and writes only when they differ: that is the drift.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// ExposeReconciler keeps a Service and a Secret for each ConfigMap.
type ExposeReconciler struct {
	client.Client
}

// Reconcile brings the ConfigMap's Service and Secret to what it wants.
func (r *ExposeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ExposeReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ExposeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		_, err := ctrl.CreateOrUpdate(ctx, r.Client, svc, func() error { // want "ExposeReconciler/drift:apply"
			svc.Spec.Ports = []corev1.ServicePort{{Port: 80}}
			return controllerutil.SetControllerReference(&cm, svc, r.Scheme())
		})
		return err
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	if _, err := controllerutil.CreateOrPatch(ctx, r.Client, sec, func() error { // want "ExposeReconciler/drift:apply"
		sec.StringData = cm.Data
		return controllerutil.SetControllerReference(&cm, sec, r.Scheme())
	}); err != nil {
		return ctrl.Result{}, err // want "ExposeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ExposeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Service{}).Owns(&corev1.Secret{}).Complete(r)
}
