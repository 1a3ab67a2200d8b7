package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "PurgeReconciler/condition-types" "PurgeReconciler/requeue-success" "PurgeReconciler/interval-trace" "PurgeReconciler/drift"

// purgeFinalizer holds a namespace's quota until the Pods labelled with its
// name are gone.
const purgeFinalizer = "finwork.example.com/purge" // want "PurgeReconciler/finalizer-const"

// PurgeReconciler deletes, when a ResourceQuota is deleted, the Pods
// labelled with its name: the deletion branch's only call is handed the
// names, not the object, and deletes by labels (DeleteAllOf), which is
// deleting objects as a Delete of each is.
type PurgeReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or purges the Pods of a deleted quota.
func (r *PurgeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PurgeReconciler/reconcile-entry"
	var quota corev1.ResourceQuota
	if err := r.Get(ctx, req.NamespacedName, &quota); err != nil { // want "PurgeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if quota.DeletionTimestamp != nil {
		if err := r.purgePods(ctx, quota.Namespace, quota.Name); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&quota, purgeFinalizer) // want "PurgeReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &quota)
	}
	if controllerutil.AddFinalizer(&quota, purgeFinalizer) { // want "PurgeReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &quota) // want "PurgeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// purgePods deletes every Pod labelled with the quota's name.
func (r *PurgeReconciler) purgePods(ctx context.Context, namespace, quota string) error { // want "PurgeReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.Pod{}, client.InNamespace(namespace), client.MatchingLabels{"purge": quota})
}

// SetupPurge registers the reconciler for ResourceQuotas.
func SetupPurge(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ResourceQuota{}).Complete(&PurgeReconciler{Client: mgr.GetClient()})
}
