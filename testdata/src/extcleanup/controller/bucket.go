// Package controller holds a reconciler whose finalizer's cleanup is a
// method of an interface that only a test double implements in the tree:
// the cleanup is that call, run by whatever implementation the program is
// given, not the test double's method.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"example.com/fixtures/extcleanup/storage"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

const bucketFinalizer = "buckets.example.com/cleanup" // want "finalizer-const"

// BucketReconciler keeps a bucket for each ConfigMap and deletes it with
// the ConfigMap.
type BucketReconciler struct {
	client.Client
	Buckets storage.Buckets
}

// Reconcile adds the finalizer, and on deletion deletes the bucket first.
func (r *BucketReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		exists, err := r.Buckets.Exists(ctx, cm)
		if err != nil {
			return ctrl.Result{}, err
		}
		if exists {
			if err := r.Buckets.Delete(ctx, cm); err != nil { // want "finalizer-cleanup"
				return ctrl.Result{}, err
			}
		}
		controllerutil.RemoveFinalizer(cm, bucketFinalizer) // want "finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, cm)
	}
	if controllerutil.AddFinalizer(cm, bucketFinalizer) { // want "finalizer-add"
		if err := r.Update(ctx, cm); err != nil {
			return ctrl.Result{}, err // want "requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *BucketReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
