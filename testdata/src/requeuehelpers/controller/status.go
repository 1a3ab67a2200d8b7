package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "StatusReconciler/requeue-success" "StatusReconciler/interval-trace"

// StatusReconciler labels Namespaces and records the outcome in a label,
// handing the work's error to the helper that records it.
type StatusReconciler struct {
	client.Client
}

// Reconcile does the work, then hands its error to record.
func (r *StatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StatusReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "StatusReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if ns.Name == "" {
		return ctrl.Result{}, fmt.Errorf("namespace without a name") // decoy: requeue-error (not the work's)
	}
	err := r.work(ctx, &ns)
	return r.record(ctx, &ns, err)
}

// work checks the Namespace's phase.
func (r *StatusReconciler) work(ctx context.Context, ns *corev1.Namespace) error {
	if ns.Status.Phase == corev1.NamespaceTerminating {
		return fmt.Errorf("namespace %s is terminating", ns.Name)
	}
	return nil
}

// record labels the Namespace with the outcome and hands the work's error
// back.
func (r *StatusReconciler) record(ctx context.Context, ns *corev1.Namespace, workErr error) (ctrl.Result, error) {
	if ns.Labels == nil {
		ns.Labels = map[string]string{}
	}
	if workErr != nil {
		ns.Labels["outcome"] = "failed"
		if err := r.Update(ctx, ns); err != nil {
			return ctrl.Result{}, fmt.Errorf("recording the failure: %w", err)
		}
		return ctrl.Result{}, workErr // want "StatusReconciler/requeue-error"
	}
	ns.Labels["outcome"] = "ok"
	if err := r.Update(ctx, ns); err != nil { // want "StatusReconciler/write-always"
		return ctrl.Result{}, err // decoy: requeue-error (the last failure return)
	}
	return ctrl.Result{}, nil
}
