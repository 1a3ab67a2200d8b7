package controller

import (
	"context"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "QuietReconciler/finalizer-const" "QuietReconciler/finalizer-add" "QuietReconciler/finalizer-cleanup" "QuietReconciler/finalizer-remove"
// want-none "QuietReconciler/condition-types" "QuietReconciler/requeue-success" "QuietReconciler/interval-trace" "QuietReconciler/drift"

// QuietReconciler counts the keys of ConfigMaps. It keeps no finalizer,
// and on a ConfigMap's deletion it only says so, through a logging helper
// that names the object: nothing is cleaned up.
type QuietReconciler struct {
	client.Client
}

// Reconcile looks at one ConfigMap.
func (r *QuietReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "QuietReconciler/reconcile-entry"
	l := log.FromContext(ctx)
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "QuietReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "QuietReconciler/requeue-error"
	}
	if cm.DeletionTimestamp != nil {
		trace(l, &cm, "configmap is being deleted, ignoring")
		return ctrl.Result{}, nil
	}
	trace(l, &cm, "configmap seen", "keys", len(cm.Data))
	return ctrl.Result{}, nil
}

// trace logs a message about an object at debug level, with its key.
func trace(l logr.Logger, obj client.Object, msg string, keysAndValues ...any) {
	keysAndValues = append([]any{"namespace", obj.GetNamespace(), "name", obj.GetName()}, keysAndValues...)
	l.V(1).Info(msg, keysAndValues...)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *QuietReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("quiet").Complete(r)
}
