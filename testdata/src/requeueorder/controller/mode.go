package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ModeReconciler/requeue-success" "ModeReconciler/interval-trace" "ModeReconciler/requeue-error"

// ModeReconciler labels Namespaces in one of two modes, each looking again
// after an interval of its own: which is the steady state no rule settles.
type ModeReconciler struct {
	client.Client
}

// Reconcile dispatches on the Namespace's mode.
func (r *ModeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ModeReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "ModeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch ns.Labels["mode"] {
	case "fast":
		return r.fast(ctx, &ns)
	default:
		return r.slow(ctx, &ns)
	}
}

// fast labels the Namespace and looks again in a minute.
func (r *ModeReconciler) fast(ctx context.Context, ns *corev1.Namespace) (ctrl.Result, error) {
	ns.Labels["seen"] = "fast"
	if err := r.Update(ctx, ns); err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (one mode's)
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil // decoy: requeue-success (one mode's)
}

// slow annotates the Namespace and looks again in an hour.
func (r *ModeReconciler) slow(ctx context.Context, ns *corev1.Namespace) (ctrl.Result, error) {
	if ns.Annotations == nil {
		ns.Annotations = map[string]string{}
	}
	ns.Annotations["seen"] = "slow"
	if err := r.Update(ctx, ns); err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (the other mode's)
	}
	return ctrl.Result{RequeueAfter: time.Hour}, nil // decoy: requeue-success (the other mode's)
}
