package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/finorigins/api/v1"
)

// want-none "BucketReconciler/condition-types" "BucketReconciler/requeue-success" "BucketReconciler/drift" "BucketReconciler/interval-trace"

// BucketReconciler holds each Bucket until it is emptied; a helper adds
// the finalizers it is handed.
type BucketReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *BucketReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Bucket{}).Complete(r)
}

// Reconcile adds the finalizer, and empties the Bucket when it is deleted.
func (r *BucketReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BucketReconciler/reconcile-entry"
	bucket := &v1.Bucket{}
	if err := r.Get(ctx, req.NamespacedName, bucket); err != nil { // want "BucketReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !bucket.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.empty(ctx, bucket)
	}
	return ctrl.Result{}, ensureFinalizers(ctx, r.Client, bucket, v1.BucketProtection) // want "BucketReconciler/requeue-error"
}

// ensureFinalizers adds each finalizer the object lacks, and updates it
// when one was added: a pass of an unchanged Bucket ends at its early
// return.
func ensureFinalizers(ctx context.Context, c client.Client, obj client.Object, finalizers ...string) error {
	added := false
	for _, f := range finalizers {
		if controllerutil.AddFinalizer(obj, f) { // want "BucketReconciler/finalizer-add"
			added = true
		}
	}
	if !added {
		return nil
	}
	return c.Update(ctx, obj)
}

// empty lets the deletion of a Bucket go on.
func (r *BucketReconciler) empty(ctx context.Context, bucket *v1.Bucket) error { // want "BucketReconciler/finalizer-cleanup"
	if controllerutil.RemoveFinalizer(bucket, v1.BucketProtection) { // want "BucketReconciler/finalizer-remove"
		return r.Update(ctx, bucket)
	}
	return nil
}
