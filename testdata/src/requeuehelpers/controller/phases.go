package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PhaseReconciler runs phases over ServiceAccounts.
type PhaseReconciler struct {
	client.Client
}

// phase is one step of a pass.
type phase func(ctx context.Context, sa *corev1.ServiceAccount) (ctrl.Result, error)

// Reconcile runs the phases, handing a phase's result back when it asks
// for one, then says when to look again.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, p := range []phase{r.label, r.wait} {
		result, err := p(ctx, &sa)
		if err != nil {
			return ctrl.Result{}, err // want "PhaseReconciler/requeue-error"
		}
		if !result.IsZero() {
			return result, err // decoy: requeue-error (err is nil here)
		}
	}
	return again(&sa)
}

// label checks the ServiceAccount's name.
func (r *PhaseReconciler) label(ctx context.Context, sa *corev1.ServiceAccount) (ctrl.Result, error) {
	if sa.Name == "" {
		return ctrl.Result{}, fmt.Errorf("service account %s has no name", sa.Namespace)
	}
	return ctrl.Result{}, nil
}

// wait waits while the ServiceAccount has no token secret yet.
func (r *PhaseReconciler) wait(ctx context.Context, sa *corev1.ServiceAccount) (ctrl.Result, error) {
	var secrets corev1.SecretList
	if err := r.List(ctx, &secrets, client.InNamespace(sa.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	if len(secrets.Items) == 0 {
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil // decoy: requeue-success (a wait on secrets)
	}
	return ctrl.Result{}, nil
}

// again says when to look at a ServiceAccount again: often while it is
// paused, hourly when it mounts tokens, never otherwise.
func again(sa *corev1.ServiceAccount) (ctrl.Result, error) {
	if sa.Annotations["paused"] == "true" {
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil
	}
	if sa.AutomountServiceAccountToken != nil && *sa.AutomountServiceAccountToken {
		return ctrl.Result{RequeueAfter: time.Hour}, nil // want "PhaseReconciler/requeue-success" "PhaseReconciler/trace:return" "PhaseReconciler/trace:constant"
	}
	return ctrl.Result{}, nil
}
