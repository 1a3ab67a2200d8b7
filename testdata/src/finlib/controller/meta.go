package controller

import (
	"context"

	"example.com/fixtures/queuelib/finalize"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// MetaReconciler keeps a copy of each ConfigMap until the ConfigMap goes.
// It holds the object in a wrapper of its own and changes its finalizers
// through a library's helpers handed the wrapper's metadata, which the
// knowledge table does not name: a search that skipped them would find
// no finalizer at all.
// want-none "MetaReconciler/condition-types" "MetaReconciler/requeue-success" "MetaReconciler/interval-trace" "MetaReconciler/drift"
type MetaReconciler struct {
	client.Client
}

// metaFinalizer holds a ConfigMap until its copy is deleted.
const metaFinalizer = "finlib.example.com/meta" // want "MetaReconciler/finalizer-const"

// configMap wraps the object the reconciler works on.
type configMap struct {
	*corev1.ConfigMap
}

// Reconcile adds the finalizer, or deletes the copy on deletion.
func (r *MetaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MetaReconciler/reconcile-entry"
	cm := configMap{&corev1.ConfigMap{}}
	if err := r.Get(ctx, req.NamespacedName, cm.ConfigMap); err != nil { // want "MetaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.forget(ctx, cm)
	}
	if !finalize.HasInMeta(&cm.ObjectMeta, metaFinalizer) {
		finalize.AddToMeta(&cm.ObjectMeta, metaFinalizer) // want "MetaReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, cm.ConfigMap) // want "MetaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// forget deletes the copy, then lets the ConfigMap go.
func (r *MetaReconciler) forget(ctx context.Context, cm configMap) error { // want "MetaReconciler/finalizer-cleanup"
	cp := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-copy", Namespace: cm.Namespace}}
	if err := r.Delete(ctx, cp); client.IgnoreNotFound(err) != nil {
		return err
	}
	finalize.RemoveFromMeta(&cm.ObjectMeta, metaFinalizer) // want "MetaReconciler/finalizer-remove"
	return r.Update(ctx, cm.ConfigMap)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MetaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("meta").Complete(r)
}
