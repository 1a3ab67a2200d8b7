// Command tagger runs two controllers. The ConfigMap one is registered with
// its reconciler, a type of the tree. The Secret one is registered with a
// reconciler picked at run time from a table of functions, which ctrlcmp
// does not follow: a Secret controller is there, and every row of it is
// not settled, naming the registration and where the trail ends, never a
// row guessed and never silence.
package main

import (
	"context"
	"os"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// ConfigMapReconciler tags ConfigMaps.
type ConfigMapReconciler struct {
	client.Client
}

// Reconcile reads the ConfigMap and logs it.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "ConfigMapReconciler/requeue-error"
	}
	ctrl.LoggerFrom(ctx).Info("seen", "configmap", cm.Name)
	return ctrl.Result{}, nil
}

// secretHandlers are the Secret reconcilers a flag picks from.
var secretHandlers = map[string]func(context.Context, reconcile.Request) (reconcile.Result, error){}

func main() {
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{})
	if err != nil {
		os.Exit(1)
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&ConfigMapReconciler{Client: mgr.GetClient()}); err != nil {
		os.Exit(1)
	}
	handle := secretHandlers[os.Getenv("SECRET_HANDLER")] // want-none "Secret/reconcile-entry" "Secret/reread" "Secret/requeue-error"
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(reconcile.Func(handle)); err != nil {
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		os.Exit(1)
	}
}
