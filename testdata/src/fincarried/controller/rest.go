package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// restFinalizer holds a PersistentVolumeClaim until its Pods are evicted.
const restFinalizer = "fincarried.example.com/rest" // want "RestReconciler/finalizer-const"

// RestReconciler runs settle on every pass; settle returns at once for a
// claim that is not being deleted, and the rest of its body wraps one call
// (evict) around the finalizer's removal: settle may be the deletion
// branch's body moved into a function, or a cleanup delegating its work.
type RestReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for claims.
func (r *RestReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Complete(r)
}

// Reconcile adds the finalizer, then settles the claim.
func (r *RestReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RestReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "RestReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if controllerutil.AddFinalizer(&pvc, restFinalizer) { // want "RestReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &pvc)
	}
	// want-none "RestReconciler/finalizer-cleanup"
	return ctrl.Result{}, r.settle(ctx, &pvc) // want "RestReconciler/requeue-error"
}

// settle evicts the Pods of a deleted claim and drops its finalizer.
func (r *RestReconciler) settle(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error {
	if pvc.DeletionTimestamp == nil {
		return nil
	}
	if err := r.evict(ctx, pvc.Namespace, pvc.Name); err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(pvc, restFinalizer) // want "RestReconciler/finalizer-remove"
	return r.Update(ctx, pvc)
}

// evict deletes the Pods labelled with the claim's name.
func (r *RestReconciler) evict(ctx context.Context, namespace, claim string) error {
	return r.DeleteAllOf(ctx, &corev1.Pod{}, client.InNamespace(namespace), client.MatchingLabels{"claim": claim})
}
