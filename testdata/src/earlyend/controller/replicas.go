package controller

import (
	"context"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ReplicaReconciler/finalizer-const" "ReplicaReconciler/finalizer-add" "ReplicaReconciler/finalizer-cleanup" "ReplicaReconciler/finalizer-remove" "ReplicaReconciler/condition-types" "ReplicaReconciler/requeue-success" "ReplicaReconciler/interval-trace"

// ReplicaReconciler sets a Deployment's replicas to the count its
// ConfigMap names, and stamps the ConfigMap once the Deployment was seen.
type ReplicaReconciler struct {
	client.Client
}

// Reconcile stamps the ConfigMap on every pass that finds its Deployment
// observed, then scales the Deployment when its replicas differ.
func (r *ReplicaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReplicaReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ReplicaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var dep appsv1.Deployment
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}, &dep); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The state the Deployment is in, against a constant: a Deployment
	// that is running has been observed, so the steady pass goes on.
	if dep.Status.ObservedGeneration == 0 {
		return ctrl.Result{}, nil
	}
	cm.Annotations = map[string]string{"example.com/observed": strconv.FormatInt(dep.Status.ObservedGeneration, 10)}
	if err := r.Update(ctx, &cm); err != nil { // want "ReplicaReconciler/write-always"
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.scale(ctx, &cm, &dep) // want "ReplicaReconciler/requeue-error"
}

// scale sets the Deployment's replicas to the ConfigMap's count, when
// they differ.
func (r *ReplicaReconciler) scale(ctx context.Context, cm *corev1.ConfigMap, dep *appsv1.Deployment) error {
	want, _ := strconv.Atoi(cm.Data["replicas"])
	replicas := int32(want)
	changed := !equality.Semantic.DeepEqual(dep.Spec.Replicas, &replicas) // want "ReplicaReconciler/drift:compare"
	if !changed {
		return nil
	}
	dep.Spec.Replicas = &replicas
	return r.Update(ctx, dep) // want "ReplicaReconciler/drift:apply"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ReplicaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("replicas").For(&corev1.ConfigMap{}).Owns(&appsv1.Deployment{}).Complete(r)
}
