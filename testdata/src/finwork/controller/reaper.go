// Package controller holds reconcilers whose deletion branches are read
// for their cleanup: one deletes the children and leaves the finalizer's
// removal to a later pass, one runs either of two cleanups, one only drops
// the finalizer, two delete the children by their labels (one before a
// helper handed the object that forces the finalizer off past a timeout).
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "ReaperReconciler/condition-types" "ReaperReconciler/requeue-success" "ReaperReconciler/interval-trace" "ReaperReconciler/drift"

// reaperFinalizer holds a ConfigMap until the Pods labelled with its name
// are gone.
const reaperFinalizer = "finwork.example.com/reaper" // want "ReaperReconciler/finalizer-const"

// ReaperReconciler deletes a ConfigMap's Pods when the ConfigMap is
// deleted; its status pass removes the finalizer once the ConfigMap's
// phase is done and no Pod is left, or at once when the ConfigMap is
// deleted while it waits: a second deletion branch, which only drops the
// finalizer.
type ReaperReconciler struct {
	client.Client
}

// Reconcile syncs the ConfigMap, then its finalizer.
func (r *ReaperReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReaperReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ReaperReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.sync(ctx, &cm); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, r.finish(ctx, &cm) // want "ReaperReconciler/requeue-error"
}

// sync deletes the Pods of a ConfigMap being deleted, and puts the
// finalizer on one that is not.
func (r *ReaperReconciler) sync(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.DeletionTimestamp != nil {
		return r.deletePods(ctx, cm)
	}
	if controllerutil.AddFinalizer(cm, reaperFinalizer) { // want "ReaperReconciler/finalizer-add"
		return r.Update(ctx, cm)
	}
	return nil
}

// deletePods deletes the Pods labelled with the ConfigMap's name.
func (r *ReaperReconciler) deletePods(ctx context.Context, cm *corev1.ConfigMap) error { // want "ReaperReconciler/finalizer-cleanup"
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(cm.Namespace), client.MatchingLabels{"reaper": cm.Name}); err != nil {
		return err
	}
	for i := range pods.Items {
		if err := r.Delete(ctx, &pods.Items[i]); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	return nil
}

// finish removes the finalizer when the ConfigMap is done and its Pods
// are gone, or when it is deleted while it waits.
func (r *ReaperReconciler) finish(ctx context.Context, cm *corev1.ConfigMap) error {
	cp := cm.DeepCopy()
	switch cm.Data["phase"] {
	case "done":
		var pods corev1.PodList
		if err := r.List(ctx, &pods, client.InNamespace(cm.Namespace), client.MatchingLabels{"reaper": cm.Name}); err != nil {
			return err
		}
		if len(pods.Items) == 0 && controllerutil.ContainsFinalizer(cp, reaperFinalizer) {
			removeFinalizer(cp, reaperFinalizer)
			return r.Update(ctx, cp)
		}
	case "waiting":
		if cm.DeletionTimestamp != nil && controllerutil.ContainsFinalizer(cp, reaperFinalizer) {
			removeFinalizer(cp, reaperFinalizer)
			return r.Update(ctx, cp)
		}
	}
	return nil
}

// removeFinalizer drops a finalizer from any object's list.
func removeFinalizer(obj metav1.Object, finalizer string) {
	var kept []string
	for _, f := range obj.GetFinalizers() {
		if f != finalizer {
			kept = append(kept, f)
		}
	}
	obj.SetFinalizers(kept) // want "ReaperReconciler/finalizer-remove" "DropReconciler/finalizer-remove"
}

// SetupReaper registers the reconciler for ConfigMaps.
func SetupReaper(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&ReaperReconciler{Client: mgr.GetClient()})
}
