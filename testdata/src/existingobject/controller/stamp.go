// Package controller holds a reconciler that saves its object the way a
// helper saves any: it creates the object when it has never been created
// and updates it otherwise, and skips one with no name. On a pass of an
// unchanged object, which was read from the cluster, the object has been
// created and has a name: the update is made on every pass.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// stampKey is the annotation the reconciler stamps on ConfigMaps.
const stampKey = "example.com/stamped"

// StampReconciler stamps ConfigMaps and the Secrets beside them.
type StampReconciler struct {
	client.Client
}

// Reconcile stamps the ConfigMap, and its Secret when there is one.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[stampKey] = "true"
	if err := r.saveConfigMap(ctx, &cm); err != nil {
		return ctrl.Result{}, err
	}
	// decoy: a Secret of another kind, updated only when it exists and
	// lacks the stamp, which is not known on a pass (the label's test is
	// the drift; the existence tests of the primary are none)
	var sec corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name + "-stamp"}, &sec); err != nil && !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	if !sec.CreationTimestamp.IsZero() && sec.Labels[stampKey] != "true" { // want "drift:compare"
		sec.Labels = map[string]string{stampKey: "true"}
		if err := r.Update(ctx, &sec); err != nil { // want "drift:apply"
			return ctrl.Result{}, err // want "requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// saveConfigMap creates a ConfigMap never created, updates one that was,
// and skips one with no name.
func (r *StampReconciler) saveConfigMap(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.GetName() == "" {
		return nil
	}
	if exists := !cm.CreationTimestamp.IsZero(); !exists {
		return r.Create(ctx, cm)
	}
	return r.Update(ctx, cm) // want "write-always"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
