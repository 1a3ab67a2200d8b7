// Package controller holds a reconciler that records, in a deferred
// closure, how many Pods use a ConfigMap: the closure assigns a local
// error the final return hands back, but the results are not named, so
// what that return hands back was evaluated before the closure ran.
package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "UsageReconciler/finalizer-const" "UsageReconciler/finalizer-add" "UsageReconciler/finalizer-cleanup" "UsageReconciler/finalizer-remove" "UsageReconciler/condition-types" "UsageReconciler/requeue-success" "UsageReconciler/interval-trace" "UsageReconciler/drift"

// UsageReconciler annotates a ConfigMap with the number of Pods of its
// namespace that mount it.
type UsageReconciler struct {
	client.Client
}

// Reconcile counts the Pods; the annotation is written on the way out.
func (r *UsageReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "UsageReconciler/reconcile-entry"
	var err error
	logger := log.FromContext(ctx)

	cm := &corev1.ConfigMap{}
	if getErr := r.Get(ctx, req.NamespacedName, cm); getErr != nil { // want "UsageReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(getErr)
	}
	pods := &corev1.PodList{}
	if listErr := r.List(ctx, pods, client.InNamespace(cm.Namespace)); listErr != nil {
		return ctrl.Result{}, listErr // want "UsageReconciler/requeue-error"
	}
	used := 0
	defer func() {
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["usage.example.com/pods"] = strconv.Itoa(used)
		if err = r.Update(ctx, cm); err != nil { // want "UsageReconciler/write-always"
			logger.Error(err, "cannot record the usage")
		}
	}()

	for _, pod := range pods.Items {
		if mounts(pod, cm.Name) {
			used++
		}
	}
	return ctrl.Result{}, err
}

// mounts reports whether a Pod mounts the named ConfigMap.
func mounts(pod corev1.Pod, name string) bool {
	for _, v := range pod.Spec.Volumes {
		if v.ConfigMap != nil && v.ConfigMap.Name == name {
			return true
		}
	}
	return false
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *UsageReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
