package controller

import (
	"context"
	stdlog "log"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "WatcherReconciler/finalizer-const" "WatcherReconciler/finalizer-add" "WatcherReconciler/finalizer-cleanup" "WatcherReconciler/finalizer-remove"
// want-none "WatcherReconciler/condition-types" "WatcherReconciler/requeue-success" "WatcherReconciler/interval-trace" "WatcherReconciler/drift"

// WatcherReconciler counts the ConfigMaps it has seen. It keeps no
// finalizer, and its branch on a ConfigMap's deletion only notes the key in
// the log: no work is done on deletion.
type WatcherReconciler struct {
	client.Client
	seen map[string]bool
}

// Reconcile notes one ConfigMap.
func (r *WatcherReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WatcherReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "WatcherReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "WatcherReconciler/requeue-error"
	}
	if cm.DeletionTimestamp != nil {
		note("configmap %s is being deleted", req.String())
		return ctrl.Result{}, nil
	}
	r.seen[req.String()] = true
	return ctrl.Result{}, nil
}

// note writes one line to the process's log.
func note(format string, args ...any) {
	stdlog.Printf(format, args...)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *WatcherReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("watcher").Complete(r)
}
