// Package controller holds a per-node reconciler whose finalizer is
// computed from the node's name (no constant declares it), and which holds
// its cleanup back while another component's finalizer, a constant it only
// tests, is on the object. That constant names a finalizer the controller
// waits on, not its own: the constant row is not settled.
package controller

import (
	"context"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// inUseFinalizer is put on a ConfigMap by another component while pods
// mount it.
const inUseFinalizer = "finwaited.example.com/in-use"

// NodeReconciler copies ConfigMaps to its node's disk.
type NodeReconciler struct {
	client.Client
	NodeName string
	Root     string
}

// finalizer is this node's finalizer.
func (r *NodeReconciler) finalizer() string {
	return r.NodeName + ".finwaited.example.com/copy" // want "finalizer-const"
}

// Reconcile claims one ConfigMap for this node, or lets it go on deletion.
func (r *NodeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	name := r.finalizer()
	if !cm.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.forget(ctx, &cm, name)
	}
	if controllerutil.AddFinalizer(&cm, name) { // want "finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &cm) // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// forget removes the node's copy once no pod mounts the ConfigMap; the
// other component's removal of its finalizer brings the object back.
func (r *NodeReconciler) forget(ctx context.Context, cm *corev1.ConfigMap, name string) error { // want "finalizer-cleanup"
	if controllerutil.ContainsFinalizer(cm, inUseFinalizer) {
		return nil
	}
	if err := os.RemoveAll(filepath.Join(r.Root, cm.Namespace, cm.Name)); err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(cm, name) // want "finalizer-remove"
	return r.Update(ctx, cm)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *NodeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("node-copy").Complete(r)
}
