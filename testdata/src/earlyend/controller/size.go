package controller

import (
	"context"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SizeReconciler/finalizer-const" "SizeReconciler/finalizer-add" "SizeReconciler/finalizer-cleanup" "SizeReconciler/finalizer-remove" "SizeReconciler/condition-types" "SizeReconciler/requeue-success" "SizeReconciler/interval-trace"

// SizeReconciler resizes a ConfigMap's Deployment and then stamps the
// ConfigMap. The early return comes only where the sizes differ: an
// unchanged object's sizes are equal, so its pass goes on to the stamp.
type SizeReconciler struct {
	client.Client
}

// Reconcile resizes, or stamps what it found.
func (r *SizeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SizeReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "SizeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var dep appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &dep); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	n, _ := strconv.Atoi(cm.Data["replicas"])
	want := int32(n)
	if dep.Spec.Replicas == nil || *dep.Spec.Replicas != want { // want "SizeReconciler/drift:compare"
		dep.Spec.Replicas = &want
		if err := r.Update(ctx, &dep); err != nil { // want "SizeReconciler/drift:apply"
			return ctrl.Result{}, err
		}
		return ctrl.Result{Requeue: true}, nil
	}
	cm.Annotations = map[string]string{"example.com/replicas": cm.Data["replicas"]}
	if err := r.Update(ctx, &cm); err != nil { // want "SizeReconciler/write-always"
		return ctrl.Result{}, err // want "SizeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *SizeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("size").For(&corev1.ConfigMap{}).Owns(&appsv1.Deployment{}).Complete(r)
}
