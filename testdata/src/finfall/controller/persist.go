package controller

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// limitsFinalizer holds LimitRanges until their ResourceQuota is gone.
const limitsFinalizer = "finfall.example.com/limits" // want "PersistReconciler/finalizer-const"

// want-none "PersistReconciler/condition-types" "PersistReconciler/requeue-success" "PersistReconciler/interval-trace" "PersistReconciler/drift"

// PersistReconciler changes its finalizer in memory with controllerutil,
// then sends the list as it then stands with a JSON patch that replaces
// the object's finalizers with its own: the change is the addition or the
// removal, the patch only persists it.
type PersistReconciler struct {
	client.Client
}

// Reconcile keeps the finalizer on a LimitRange until it is deleted.
func (r *PersistReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PersistReconciler/reconcile-entry"
	lr := &corev1.LimitRange{}
	if err := r.Get(ctx, req.NamespacedName, lr); err != nil { // want "PersistReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !lr.DeletionTimestamp.IsZero() {
		if err := r.release(ctx, lr); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, dropFinalizer(ctx, r.Client, lr)
	}
	if controllerutil.AddFinalizer(lr, limitsFinalizer) { // want "PersistReconciler/finalizer-add"
		return ctrl.Result{}, persistFinalizers(ctx, r.Client, lr) // want "PersistReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// persistFinalizers replaces the object's finalizers with its own list.
func persistFinalizers(ctx context.Context, c client.Client, obj client.Object) error {
	ops := []map[string]any{{"op": "replace", "path": "/metadata/finalizers", "value": obj.GetFinalizers()}}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	return c.Patch(ctx, obj, client.RawPatch(types.JSONPatchType, data))
}

// dropFinalizer removes the finalizer and persists the list, when it has it.
func dropFinalizer(ctx context.Context, c client.Client, obj client.Object) error {
	if controllerutil.RemoveFinalizer(obj, limitsFinalizer) { // want "PersistReconciler/finalizer-remove"
		return persistFinalizers(ctx, c, obj)
	}
	return nil
}

// release deletes the LimitRange's ResourceQuota.
func (r *PersistReconciler) release(ctx context.Context, lr *corev1.LimitRange) error { // want "PersistReconciler/finalizer-cleanup"
	quota := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Namespace: lr.Namespace, Name: lr.Name}}
	return client.IgnoreNotFound(r.Delete(ctx, quota))
}

// SetupWithManager registers the reconciler for LimitRanges.
func (r *PersistReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.LimitRange{}).Complete(r)
}
