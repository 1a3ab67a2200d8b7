// Package controller holds the Lease reconciler.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	leasev1 "example.com/fixtures/fmtfinalizer/api/v1"
)

// want-none "condition-types" "requeue-success" "drift" "interval-trace"

// LeaseReconciler keeps a finalizer on each Lease until it is deleted.
type LeaseReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *LeaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&leasev1.Lease{}).Complete(r)
}

// Reconcile adds the finalizer, and releases the Lease when it is deleted.
func (r *LeaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	lease := &leasev1.Lease{}
	if err := r.Get(ctx, req.NamespacedName, lease); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !lease.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.release(ctx, lease)
	}
	if controllerutil.AddFinalizer(lease, leasev1.Finalizer) { // want "finalizer-add"
		lease.Labels = map[string]string{leasev1.HolderLabel: lease.Spec.Holder}
		return ctrl.Result{}, r.Update(ctx, lease) // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// release lets the deletion of a Lease go on.
func (r *LeaseReconciler) release(ctx context.Context, lease *leasev1.Lease) error { // want "finalizer-cleanup"
	if controllerutil.RemoveFinalizer(lease, leasev1.Finalizer) { // want "finalizer-remove"
		return r.Update(ctx, lease)
	}
	return nil
}
