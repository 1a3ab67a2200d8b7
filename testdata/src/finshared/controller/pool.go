// Package controller holds a reconciler whose member sync runs on every
// pass, the deletion's included: on a deleted pool it hands the work to a
// function of its own, which deletes the members, and the finalizer goes
// once that has run.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// poolFinalizer keeps a pool until its member Secrets are deleted.
const poolFinalizer = "finshared.example.com/members" // want "PoolReconciler/finalizer-const"

// poolLabel names the pool a member Secret belongs to.
const poolLabel = "finshared.example.com/pool"

// PoolReconciler keeps one member Secret per key of a pool ConfigMap.
type PoolReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *PoolReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile syncs one pool.
func (r *PoolReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PoolReconciler/reconcile-entry"
	var pool corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &pool); err != nil { // want "PoolReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.reconcile(ctx, &pool); err != nil {
		return ctrl.Result{}, err // want "PoolReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// reconcile syncs the members, then keeps the finalizer on a live pool or
// lets a deleted one go.
func (r *PoolReconciler) reconcile(ctx context.Context, pool *corev1.ConfigMap) error {
	if pool.DeletionTimestamp != nil {
		if err := r.syncMembers(ctx, pool); err != nil {
			return err
		}
		return r.release(ctx, pool)
	}
	if err := r.syncMembers(ctx, pool); err != nil {
		return err
	}
	if controllerutil.AddFinalizer(pool, poolFinalizer) { // want "PoolReconciler/finalizer-add"
		return r.Update(ctx, pool)
	}
	return nil
}

// syncMembers makes a member Secret for each key of a live pool; a
// deleted pool's members go.
func (r *PoolReconciler) syncMembers(ctx context.Context, pool *corev1.ConfigMap) error {
	if !pool.DeletionTimestamp.IsZero() {
		return r.dropMembers(ctx, pool)
	}
	for key := range pool.Data {
		member := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
			Name:      pool.Name + "-" + key,
			Namespace: pool.Namespace,
			Labels:    map[string]string{poolLabel: pool.Name},
		}}
		if err := r.Create(ctx, member); err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	return nil
}

// dropMembers deletes every member Secret of the pool.
func (r *PoolReconciler) dropMembers(ctx context.Context, pool *corev1.ConfigMap) error { // want "PoolReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.Secret{}, client.InNamespace(pool.Namespace), client.MatchingLabels{poolLabel: pool.Name})
}

// release lets the deleted pool go.
func (r *PoolReconciler) release(ctx context.Context, pool *corev1.ConfigMap) error {
	controllerutil.RemoveFinalizer(pool, poolFinalizer) // want "PoolReconciler/finalizer-remove"
	return r.Update(ctx, pool)
}
