// Package controller holds a reconciler that stamps the Deployment a
// ConfigMap names with the restart the ConfigMap asks for, on every pass,
// without comparing: it has no drift. The tests of a value against the
// zero of its type (a name left empty, a list with no element) guard early
// returns before the write and compare nothing with desired state.
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

const restartKey = "example.com/restarted-at"

// RestartReconciler restarts Deployments on request.
type RestartReconciler struct {
	client.Client
}

// Reconcile stamps the Deployment's pod template with the restart the
// ConfigMap asks for.
func (r *RestartReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	name := cm.Data["deployment"]
	if name == "" { // decoy: drift:compare (a name left empty)
		return ctrl.Result{}, nil
	}
	var dep appsv1.Deployment
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: name}, &dep); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(dep.Spec.Template.Spec.Containers) == 0 { // decoy: drift:compare (a list with no element)
		return ctrl.Result{}, nil
	}
	if dep.Spec.Template.Annotations == nil {
		dep.Spec.Template.Annotations = map[string]string{}
	}
	dep.Spec.Template.Annotations[restartKey] = cm.Data["restart"]
	if err := r.Update(ctx, &dep); err != nil { // want "write-always"
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *RestartReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
