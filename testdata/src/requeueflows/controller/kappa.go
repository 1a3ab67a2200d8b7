package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "KappaReconciler/finalizer-const" "KappaReconciler/finalizer-add" "KappaReconciler/finalizer-cleanup" "KappaReconciler/finalizer-remove" "KappaReconciler/condition-types" "KappaReconciler/requeue-success" "KappaReconciler/requeue-error" "KappaReconciler/interval-trace" "KappaReconciler/drift"

// missingWait is how long a ConfigMap without labels waits.
const missingWait = 30 * time.Second

// KappaReconciler watches the leases ConfigMaps name in their labels.
type KappaReconciler struct {
	client.Client
}

// Reconcile stores into its result directly on one early path, and
// through a helper it hands the result's address on the others: what the
// final return asks for is what the helper stored, which a reading of the
// body's own stores does not see. Its success requeue is not settled.
func (r *KappaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "KappaReconciler/reconcile-entry"
	result := ctrl.Result{}
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "KappaReconciler/reread"
		return result, client.IgnoreNotFound(err)
	}
	if cm.Labels == nil {
		result.RequeueAfter = missingWait
		return result, nil
	}
	for _, name := range cm.Labels {
		var lease corev1.ConfigMap
		if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: name}, &lease); err != nil {
			return result, err
		}
		shortenWait(&result, leaseLeft(&lease))
	}
	return result, nil
}

// shortenWait lowers the result's wait to d when d is shorter.
func shortenWait(result *ctrl.Result, d time.Duration) {
	if d > 0 && (result.RequeueAfter == 0 || d < result.RequeueAfter) {
		result.RequeueAfter = d
	}
}

// leaseLeft is how long the lease a ConfigMap records has left.
func leaseLeft(cm *corev1.ConfigMap) time.Duration {
	d, err := time.ParseDuration(cm.Data["left"])
	if err != nil {
		return 0
	}
	return d
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *KappaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("kappa").For(&corev1.ConfigMap{}).Complete(r)
}
