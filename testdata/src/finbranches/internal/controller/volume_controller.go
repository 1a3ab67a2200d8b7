// Package controller holds the Volume and Pool reconcilers.
package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	storagev1 "example.com/fixtures/finbranches/api/v1"
)

// VolumeReconciler holds a Volume until it is unmounted; an unmanaged
// Volume goes at once.
type VolumeReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *VolumeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&storagev1.Volume{}).Complete(r)
}

// want-none "VolumeReconciler/condition-types" "VolumeReconciler/finalizer-cleanup" "VolumeReconciler/drift"

// Reconcile adds the finalizer, lets an unmanaged Volume go when it is
// deleted, and otherwise waits for a deleted Volume to be unmounted.
func (r *VolumeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "VolumeReconciler/reconcile-entry"
	vol := &storagev1.Volume{}
	if err := r.Get(ctx, req.NamespacedName, vol); err != nil { // want "VolumeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if vol.DeletionTimestamp.IsZero() && controllerutil.AddFinalizer(vol, storagev1.VolumeFinalizer) { // want "VolumeReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, vol)
	}
	if vol.Spec.Unmanaged {
		if !vol.DeletionTimestamp.IsZero() {
			controllerutil.RemoveFinalizer(vol, storagev1.VolumeFinalizer)
			return ctrl.Result{}, r.Update(ctx, vol)
		}
		return ctrl.Result{}, nil
	}
	if !vol.DeletionTimestamp.IsZero() {
		if vol.Status.Mounted {
			return ctrl.Result{RequeueAfter: 30 * time.Second}, nil // want "VolumeReconciler/requeue-success" "VolumeReconciler/trace:constant" "VolumeReconciler/trace:return"
		}
		controllerutil.RemoveFinalizer(vol, storagev1.VolumeFinalizer) // want "VolumeReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, vol)
	}
	vol.Status.Checked = true
	return ctrl.Result{}, r.Status().Update(ctx, vol) // want "VolumeReconciler/requeue-error" "VolumeReconciler/write-always"
}
