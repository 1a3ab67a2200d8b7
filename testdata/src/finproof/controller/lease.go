package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "LeaseReconciler/finalizer-cleanup" "LeaseReconciler/condition-types" "LeaseReconciler/requeue-success" "LeaseReconciler/interval-trace" "LeaseReconciler/drift"

const leaseFinalizer = "finproof.example.com/lease" // want "LeaseReconciler/finalizer-const"

// LeaseReconciler holds a lease ConfigMap; its deletion path follows the
// live path's branch instead of sitting in a branch of its own.
type LeaseReconciler struct {
	client.Client
}

// Reconcile stamps a live ConfigMap, or lets a deleted one go.
func (r *LeaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LeaseReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "LeaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp.IsZero() {
		if controllerutil.AddFinalizer(&cm, leaseFinalizer) { // want "LeaseReconciler/finalizer-add"
			return ctrl.Result{}, r.Update(ctx, &cm)
		}
		stamp := cm.DeepCopy()
		stamp.Annotations = map[string]string{"lease": "held"}
		// The steady pass ends here: the deletion path below is not its
		// end, though it is the body's last return.
		return ctrl.Result{}, r.Patch(ctx, stamp, client.MergeFrom(&cm)) // want "LeaseReconciler/requeue-error" "LeaseReconciler/write-always"
	}
	controllerutil.RemoveFinalizer(&cm, leaseFinalizer) // want "LeaseReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, &cm)
}

// SetupWithManager registers the lease holder for ConfigMaps.
func (r *LeaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("lease").Complete(r)
}
