package controller

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	storagev1 "example.com/fixtures/finbranches/api/v1"
)

// PoolReconciler holds a Pool until its disks are released, unless they
// are retained.
type PoolReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *PoolReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&storagev1.Pool{}).Complete(r)
}

// want-none "PoolReconciler/finalizer-remove" "PoolReconciler/condition-types" "PoolReconciler/finalizer-cleanup" "PoolReconciler/drift"

// Reconcile adds the finalizer; a deleted Pool that retains its disks goes
// at once, another one when no disk is in use. Both removals stand at the
// top of Reconcile: which one is the cleanup's is not in the code.
func (r *PoolReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PoolReconciler/reconcile-entry"
	pool := &storagev1.Pool{}
	if err := r.Get(ctx, req.NamespacedName, pool); err != nil { // want "PoolReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pool.DeletionTimestamp.IsZero() && controllerutil.AddFinalizer(pool, storagev1.PoolFinalizer) { // want "PoolReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, pool)
	}
	if !pool.DeletionTimestamp.IsZero() && pool.Spec.Retain {
		controllerutil.RemoveFinalizer(pool, storagev1.PoolFinalizer)
		return ctrl.Result{}, r.Update(ctx, pool)
	}
	if !pool.DeletionTimestamp.IsZero() {
		if pool.Status.InUse > 0 {
			return ctrl.Result{RequeueAfter: time.Minute}, nil // want "PoolReconciler/requeue-success" "PoolReconciler/trace:constant" "PoolReconciler/trace:return"
		}
		controllerutil.RemoveFinalizer(pool, storagev1.PoolFinalizer)
		return ctrl.Result{}, r.Update(ctx, pool) // want "PoolReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}
