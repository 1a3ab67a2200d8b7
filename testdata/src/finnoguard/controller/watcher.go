package controller

import (
	"context"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "WatcherReconciler/finalizer-const" "WatcherReconciler/finalizer-add" "WatcherReconciler/finalizer-cleanup" "WatcherReconciler/finalizer-remove"
// want-none "WatcherReconciler/condition-types" "WatcherReconciler/requeue-success" "WatcherReconciler/interval-trace" "WatcherReconciler/drift"

// WatcherReconciler counts the ConfigMaps it has seen. It keeps no
// finalizer, and its branch on a ConfigMap's deletion only logs, through a
// logger made for the object: no work is done on deletion.
type WatcherReconciler struct {
	client.Client
	seen map[string]bool
	logs logBackend
}

// Reconcile notes one ConfigMap.
func (r *WatcherReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WatcherReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "WatcherReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "WatcherReconciler/requeue-error"
	}
	if cm.DeletionTimestamp != nil {
		r.logFor(&cm).Info("being deleted")
		return ctrl.Result{}, nil
	}
	r.seen[req.String()] = true
	return ctrl.Result{}, nil
}

// logFor is the logger of one ConfigMap, from the reconciler's logging
// backend.
func (r *WatcherReconciler) logFor(cm *corev1.ConfigMap) logr.Logger {
	return r.logs.For(cm.Namespace + "/" + cm.Name)
}

// logBackend hands out loggers by name; the program that runs the
// reconciler provides it.
type logBackend interface {
	For(name string) logr.Logger
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *WatcherReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("watcher").Complete(r)
}
