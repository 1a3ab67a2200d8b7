package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// leaseRenewal is how often a lease ConfigMap is stamped again.
const leaseRenewal = 5 * time.Minute // want "LeaseReconciler/trace:constant"

// want-none "LeaseReconciler/finalizer-const" "LeaseReconciler/finalizer-add" "LeaseReconciler/finalizer-cleanup" "LeaseReconciler/finalizer-remove" "LeaseReconciler/condition-types" "LeaseReconciler/drift"

// LeaseReconciler stamps a ConfigMap on every pass and comes back to
// stamp it again; the result it returns is built first, then handed
// through a plan and a helper before the return.
type LeaseReconciler struct {
	client.Client
}

// Reconcile stamps the lease.
func (r *LeaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LeaseReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "LeaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res := ctrl.Result{}
	res.RequeueAfter = leaseRenewal
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["lease/holder"] = "ctrl"
	if err := r.Update(ctx, cm); err != nil { // want "LeaseReconciler/write-always"
		return ctrl.Result{}, err // want "LeaseReconciler/requeue-error"
	}
	_, out := settle(passPlan{result: res, reason: "renewed"})
	return out, nil // want "LeaseReconciler/requeue-success" "LeaseReconciler/trace:return"
}

// passPlan is what a pass decided: its result and why.
type passPlan struct {
	result ctrl.Result
	reason string
}

// settle hands back the plan's reason and result.
func settle(p passPlan) (string, ctrl.Result) {
	return p.reason, p.result
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *LeaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
