package controller

import (
	"context"

	"example.com/fixtures/queuelib/finalize"
	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "ClaimReconciler/condition-types" "ClaimReconciler/requeue-success" "ClaimReconciler/interval-trace" "ClaimReconciler/drift"

// claimFinalizer holds a Service until its claim is released.
const claimFinalizer = "finproof.example.com/claim" // want "ClaimReconciler/finalizer-const"

// ClaimReconciler claims Services through the organisation's finalizer
// helpers, a dependency whose bodies hold the finalizer changes.
type ClaimReconciler struct {
	client.Client
}

// Reconcile claims one Service, or releases it on deletion.
func (r *ClaimReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ClaimReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ClaimReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	log.FromContext(ctx).Info("claiming", "service", finalize.Describe(&svc)) // decoy: handed the object, changes nothing
	if beingDeleted(&svc) {
		return ctrl.Result{}, r.release(ctx, &svc)
	}
	finalize.Add(&svc, claimFinalizer)        // want "ClaimReconciler/finalizer-add"
	return ctrl.Result{}, r.Update(ctx, &svc) // want "ClaimReconciler/requeue-error" "ClaimReconciler/write-always"
}

// beingDeleted tests an object's deletion timestamp: the branch it guards
// is the deletion branch.
func beingDeleted(obj client.Object) bool {
	return obj.GetDeletionTimestamp() != nil
}

// release gives the claim up and lets the Service go.
func (r *ClaimReconciler) release(ctx context.Context, svc *corev1.Service) error { // want "ClaimReconciler/finalizer-cleanup"
	finalize.Remove(svc, claimFinalizer) // want "ClaimReconciler/finalizer-remove"
	return r.Update(ctx, svc)
}

// SetupWithManager registers the claimer for Services.
func (r *ClaimReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("claimer").Complete(r)
}
