package controller

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// The finalizer holds a ConfigMap until its archive is written. The
// archive is written, the ConfigMap deleted and the finalizer dropped once
// the ConfigMap is marked retired: a phase, not its deletion, chooses that
// path. The only test of the deletion leaves a ConfigMap whose finalizer
// is already gone alone: no branch taken on the deletion leads to the
// removal, and which function is the cleanup is not settled.
// want-none "finalizer-cleanup" "condition-types" "requeue-success" "interval-trace" "drift"

const (
	archiveFinalizer = "archiver.example.com/archive" // want "finalizer-const"
	phaseAnnotation  = "archiver.example.com/phase"
	retired          = "Retired"
)

// ArchiveReconciler archives retired ConfigMaps.
type ArchiveReconciler struct {
	client.Client
	Dir string
}

// Reconcile holds a ConfigMap with the finalizer and archives it once it
// is retired.
func (r *ArchiveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp.IsZero() && controllerutil.AddFinalizer(cm, archiveFinalizer) { // want "finalizer-add"
		return ctrl.Result{}, r.Update(ctx, cm)
	}
	if !shouldArchive(cm) {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, r.archive(ctx, cm) // want "requeue-error"
}

// shouldArchive reports whether a ConfigMap is retired and still held.
func shouldArchive(cm *corev1.ConfigMap) bool {
	if !cm.DeletionTimestamp.IsZero() && !controllerutil.ContainsFinalizer(cm, archiveFinalizer) {
		return false
	}
	return cm.Annotations[phaseAnnotation] == retired
}

// archive writes the data out, deletes the ConfigMap and lets it go.
func (r *ArchiveReconciler) archive(ctx context.Context, cm *corev1.ConfigMap) error {
	path := filepath.Join(r.Dir, cm.Namespace+"-"+cm.Name)
	if err := os.WriteFile(path, []byte(fmt.Sprint(cm.Data)), 0o600); err != nil {
		return err
	}
	if err := r.Delete(ctx, cm); client.IgnoreNotFound(err) != nil {
		return err
	}
	controllerutil.RemoveFinalizer(cm, archiveFinalizer) // want "finalizer-remove"
	return client.IgnoreNotFound(r.Update(ctx, cm))
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ArchiveReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
