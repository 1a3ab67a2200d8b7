// Package controller holds a reconciler that keeps Services for each
// ConfigMap through controllerutil.CreateOrUpdate. One mutate function
// replaces the whole Service with a freshly built one, dropping the uid
// and creationTimestamp the read filled in: that update runs on every
// pass. The others change fields of the Service read, or put the read's
// metadata back, and write only when something differs.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// ExposeReconciler keeps three Services for each ConfigMap.
type ExposeReconciler struct {
	client.Client
}

// Reconcile reads the ConfigMap and ensures its Services.
func (r *ExposeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	headless := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-headless", Namespace: cm.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, headless, func() error { // want "write-always" "drift:apply"
		version := headless.ResourceVersion
		*headless = buildService(cm, "-headless")
		headless.ResourceVersion = version
		return nil
	}); err != nil {
		return ctrl.Result{}, err
	}
	var plain corev1.Service
	plain.Name, plain.Namespace = cm.Name, cm.Namespace
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, &plain, func() error { // want "drift:apply" decoy: write-always (fields of the read Service)
		plain.Spec.Selector = map[string]string{"app": cm.Name}
		return nil
	}); err != nil {
		return ctrl.Result{}, err
	}
	kept := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-kept", Namespace: cm.Namespace}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.Client, kept, func() error { // want "drift:apply" decoy: write-always (the read's metadata put back)
		meta := kept.ObjectMeta
		*kept = buildService(cm, "-kept")
		kept.ObjectMeta = meta
		return nil
	}); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// buildService is the Service a ConfigMap wants, named with the suffix.
func buildService(cm *corev1.ConfigMap, suffix string) corev1.Service {
	return corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: cm.Name + suffix, Namespace: cm.Namespace},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone,
			Selector:  map[string]string{"app": cm.Name},
		},
	}
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ExposeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Service{}).Complete(r)
}
