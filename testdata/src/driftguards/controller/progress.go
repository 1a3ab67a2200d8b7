// Package controller holds reconcilers whose tests before a write compare
// no desired state with the cluster, and two whose do.
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ProgressReconciler/finalizer-const" "ProgressReconciler/finalizer-add" "ProgressReconciler/finalizer-cleanup" "ProgressReconciler/finalizer-remove" "ProgressReconciler/condition-types" "ProgressReconciler/requeue-success" "ProgressReconciler/interval-trace" "ProgressReconciler/drift"

// initializedKey marks a pod the reconciler has set up.
const initializedKey = "example.com/initialized"

// ProgressReconciler marks the pod of a ConfigMap's StatefulSet once the
// StatefulSet has rolled out: it waits on the StatefulSet's progress (its
// generation against its observed generation, the pod's revision against
// the one the StatefulSet reports), which compares no desired state.
type ProgressReconciler struct {
	client.Client
}

// Reconcile waits for the rollout, then marks the pod.
func (r *ProgressReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ProgressReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "ProgressReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ss := &appsv1.StatefulSet{}
	if err := r.Get(ctx, req.NamespacedName, ss); err != nil {
		return ctrl.Result{}, err
	}
	if !rolledOut(ss) {
		return ctrl.Result{}, nil
	}
	pod := &corev1.Pod{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: req.Namespace, Name: req.Name + "-0"}, pod); err != nil {
		return ctrl.Result{}, err
	}
	if pod.Labels["controller-revision-hash"] != ss.Status.CurrentRevision {
		return ctrl.Result{}, nil
	}
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[initializedKey] = "true"
	if err := r.Update(ctx, pod); err != nil {
		return ctrl.Result{}, err // want "ProgressReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// rolledOut reports whether a StatefulSet's controller has seen its last
// change.
func rolledOut(ss *appsv1.StatefulSet) bool {
	return ss.Generation == ss.Status.ObservedGeneration
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ProgressReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("progress").For(&corev1.ConfigMap{}).Complete(r)
}
