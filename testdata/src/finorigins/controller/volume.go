// Package controller holds the storage reconcilers.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/finorigins/api/v1"
)

// want-none "VolumeReconciler/condition-types" "VolumeReconciler/requeue-success" "VolumeReconciler/drift" "VolumeReconciler/interval-trace"

// VolumeReconciler holds each Volume until it is detached; the finalizer
// is the name a function of the API package formats.
type VolumeReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *VolumeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Volume{}).Complete(r)
}

// Reconcile adds the finalizer, and detaches the Volume when it is
// deleted.
func (r *VolumeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "VolumeReconciler/reconcile-entry"
	vol := &v1.Volume{}
	if err := r.Get(ctx, req.NamespacedName, vol); err != nil { // want "VolumeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !vol.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.detach(ctx, vol)
	}
	if !controllerutil.ContainsFinalizer(vol, v1.VolumeFinalizer()) {
		patch := client.MergeFrom(vol.DeepCopyObject().(client.Object))
		controllerutil.AddFinalizer(vol, v1.VolumeFinalizer()) // want "VolumeReconciler/finalizer-add"
		return ctrl.Result{}, r.Patch(ctx, vol, patch)         // want "VolumeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// detach lets the deletion of a Volume go on.
func (r *VolumeReconciler) detach(ctx context.Context, vol *v1.Volume) error { // want "VolumeReconciler/finalizer-cleanup"
	patch := client.MergeFrom(vol.DeepCopyObject().(client.Object))
	controllerutil.RemoveFinalizer(vol, v1.VolumeFinalizer()) // want "VolumeReconciler/finalizer-remove"
	return r.Patch(ctx, vol, patch)
}
