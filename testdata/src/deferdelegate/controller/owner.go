// Package controller holds a reconciler that defers and hands the rest of
// its pass to a helper (return ctrl.Result{}, r.sync(…)): in a function
// that defers, a return stores its values and hands back their loads, and
// the helper is still the rest of the pass, read as the entry's body is.
package controller

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// ownerKey is the annotation naming the Deployment a ConfigMap serves.
const ownerKey = "example.com/owner"

// OwnerReconciler records on ConfigMaps the name of their owner.
type OwnerReconciler struct {
	client.Client
	passes int
}

// Reconcile counts the pass and hands it to sync.
func (r *OwnerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	defer r.count()
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.sync(ctx, &cm) // want "requeue-error"
}

// sync copies the owner's name onto the ConfigMap.
func (r *OwnerReconciler) sync(ctx context.Context, cm *corev1.ConfigMap) error {
	var owner appsv1.Deployment
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Annotations[ownerKey]}, &owner); err != nil {
		if apierrors.IsNotFound(err) {
			return nil // the owner is gone: its ConfigMap is being deleted with it
		}
		return err
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["example.com/owner-name"] = owner.Name
	return r.Update(ctx, cm) // want "write-always"
}

// count counts the passes.
func (r *OwnerReconciler) count() {
	r.passes++
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *OwnerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
