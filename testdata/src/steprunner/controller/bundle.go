// Package controller holds two reconcilers that share a runner of steps:
// each builds its own list, and a step one of them never builds is not on
// the other's path.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/steprunner/steps"
)

// want-none "BundleReconciler/finalizer-cleanup" "BundleReconciler/requeue-success" "BundleReconciler/condition-types" "BundleReconciler/interval-trace" "BundleReconciler/drift"

// bundleFinalizer holds a ConfigMap until its Secret copy is gone.
const bundleFinalizer = "example.com/bundle" // want "BundleReconciler/finalizer-const"

// BundleReconciler keeps a Secret copy of every ConfigMap, through the
// shared runner: on deletion its steps delete the copy, then drop the
// finalizer.
type BundleReconciler struct {
	client.Client
}

// Reconcile runs the ConfigMap's steps.
func (r *BundleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BundleReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "BundleReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return steps.Runner{Steps: r.steps(&cm), Client: r.Client}.Run(ctx)
}

// steps are the ConfigMap's steps: its copy applied while it lives and
// deleted once it is being deleted, then its finalizer.
func (r *BundleReconciler) steps(cm *corev1.ConfigMap) []steps.Step {
	cp := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-copy"}, StringData: cm.Data}
	var child steps.Step = steps.Deleter{Object: cp}
	if cm.DeletionTimestamp.IsZero() {
		child = steps.Applier{Object: cp}
	}
	return []steps.Step{child, steps.Finalizer{Object: cm, Name: bundleFinalizer}}
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *BundleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
