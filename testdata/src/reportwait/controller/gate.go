package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// GateReconciler returns, under one test of both, an error and an
// interval a helper makes: where the error is nil the interval may be a
// wait or a retry the helper absorbed, which this return does not tell.
// The success requeue is not settled, never "event-driven only".
type GateReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *GateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile stamps the ConfigMap's defaults.
func (r *GateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GateReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "GateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if wait, err := r.defaults(ctx, &cm); err != nil || wait > 0 {
		return ctrl.Result{RequeueAfter: wait}, err // want "GateReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
} // want-none "GateReconciler/condition-types" "GateReconciler/finalizer-const" "GateReconciler/finalizer-add" "GateReconciler/finalizer-cleanup" "GateReconciler/finalizer-remove" "GateReconciler/requeue-success" "GateReconciler/interval-trace"

// defaults stamps the default label; a conflict is retried after a while.
func (r *GateReconciler) defaults(ctx context.Context, cm *corev1.ConfigMap) (time.Duration, error) {
	if cm.Labels["stamped"] == "true" { // want "GateReconciler/drift:compare"
		return 0, nil
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["stamped"] = "true"
	if err := r.Update(ctx, cm); err != nil { // want "GateReconciler/drift:apply"
		if apierrors.IsConflict(err) {
			return 2 * time.Second, nil
		}
		return 0, err
	}
	return 0, nil
}
