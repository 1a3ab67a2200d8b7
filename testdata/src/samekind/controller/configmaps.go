// Package controller holds two reconcilers of one kind: both are registered
// for ConfigMaps, one labels them and the other prunes the stale ones.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types"
// want-none "LabelReconciler/requeue-success" "LabelReconciler/interval-trace"

const (
	// seenLabel marks a ConfigMap the labeller has seen.
	seenLabel = "example.com/seen"
	// staleLabel marks a ConfigMap the pruner deletes.
	staleLabel = "example.com/stale"
)

// LabelReconciler labels every ConfigMap once.
type LabelReconciler struct {
	client.Client
}

// Reconcile labels one ConfigMap if it is not labelled yet.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LabelReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "LabelReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[seenLabel] == "" { // want "LabelReconciler/drift:compare"
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels[seenLabel] = "yes"
		if err := r.Update(ctx, &cm); err != nil { // want "LabelReconciler/drift:apply"
			return ctrl.Result{}, err // want "LabelReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the labeller for ConfigMaps.
func (r *LabelReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("configmap-labeller").Complete(r)
}

// pruneInterval is how often a ConfigMap is looked at again.
const pruneInterval = 5 * time.Minute // want "PruneReconciler/trace:constant"

// PruneReconciler deletes the ConfigMaps marked stale.
type PruneReconciler struct {
	client.Client
}

// Reconcile deletes one ConfigMap if it is marked stale, and looks at it
// again later otherwise.
func (r *PruneReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PruneReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "PruneReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[staleLabel] == "true" { // want "PruneReconciler/drift:compare"
		if err := r.Delete(ctx, &cm); err != nil { // want "PruneReconciler/drift:apply"
			return ctrl.Result{}, err // want "PruneReconciler/requeue-error"
		}
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: pruneInterval}, nil // want "PruneReconciler/requeue-success" "PruneReconciler/trace:return"
}

// SetupWithManager registers the pruner for ConfigMaps.
func (r *PruneReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("configmap-pruner").Complete(r)
}
