package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// dropFinalizer holds a ConfigMap until the Secrets it lists are gone.
const dropFinalizer = "finremovehelper.example.com/drop" // want "finalizer-const"

// DropReconciler's cleanup lets a ConfigMap that lists no Secret go at
// once (a shortcut), else deletes the Secrets it lists and then drops the
// finalizer through release, a helper that only removes it: that removal,
// made after the work, is the one on the cleanup's main path.
type DropReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *DropReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile adds the finalizer, or on deletion runs purge.
func (r *DropReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp != nil {
		return ctrl.Result{}, r.purge(ctx, cm)
	}
	if controllerutil.AddFinalizer(cm, dropFinalizer) { // want "finalizer-add"
		return ctrl.Result{}, r.Update(ctx, cm) // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// purge deletes the listed Secrets, then lets the ConfigMap go.
func (r *DropReconciler) purge(ctx context.Context, cm *corev1.ConfigMap) error { // want "finalizer-cleanup"
	if len(cm.Data) == 0 {
		controllerutil.RemoveFinalizer(cm, dropFinalizer)
		return r.Update(ctx, cm)
	}
	for name := range cm.Data {
		s := &corev1.Secret{}
		s.Name, s.Namespace = name, cm.Namespace
		if err := r.Delete(ctx, s); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	release(cm)
	return r.Update(ctx, cm)
}

// release drops the finalizer from the ConfigMap.
func release(cm *corev1.ConfigMap) {
	controllerutil.RemoveFinalizer(cm, dropFinalizer) // want "finalizer-remove"
}
