package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "DropReconciler/finalizer-cleanup" "DropReconciler/condition-types" "DropReconciler/requeue-success" "DropReconciler/interval-trace" "DropReconciler/drift"

// dropFinalizer marks the Services this controller has seen.
const dropFinalizer = "finwork.example.com/drop" // want "DropReconciler/finalizer-const"

// DropReconciler has nothing to clean up: its deletion branch only drops
// the finalizer, through the helper that reads the list and sets it.
type DropReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, and drops it when the Service goes.
func (r *DropReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DropReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "DropReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.DeletionTimestamp != nil {
		removeFinalizer(&svc, dropFinalizer)
		return ctrl.Result{}, r.Update(ctx, &svc)
	}
	if controllerutil.AddFinalizer(&svc, dropFinalizer) { // want "DropReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &svc) // want "DropReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupDrop registers the reconciler for Services.
func SetupDrop(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(&DropReconciler{Client: mgr.GetClient()})
}
