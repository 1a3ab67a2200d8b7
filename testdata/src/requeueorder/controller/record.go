package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "RecordReconciler/requeue-success" "RecordReconciler/interval-trace"

// RecordReconciler checks ServiceAccounts and records the outcome; the
// work's error is handed to record, which hands it on to fail.
type RecordReconciler struct {
	client.Client
}

// Reconcile does the work, then hands its error to record.
func (r *RecordReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RecordReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "RecordReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err := r.check(&sa)
	return r.record(ctx, &sa, err)
}

// check says whether the ServiceAccount mounts its token.
func (r *RecordReconciler) check(sa *corev1.ServiceAccount) error {
	if sa.AutomountServiceAccountToken != nil && *sa.AutomountServiceAccountToken {
		return fmt.Errorf("service account %s mounts its token", sa.Name)
	}
	return nil
}

// record labels a failed ServiceAccount, and lists the Secrets of a good
// one.
func (r *RecordReconciler) record(ctx context.Context, sa *corev1.ServiceAccount, workErr error) (ctrl.Result, error) {
	if sa.Labels == nil {
		sa.Labels = map[string]string{}
	}
	if workErr != nil {
		return r.fail(ctx, sa, workErr)
	}
	var secrets corev1.SecretList
	if err := r.List(ctx, &secrets, client.InNamespace(sa.Namespace)); err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (the last failure return)
	}
	return ctrl.Result{}, nil
}

// fail records a failure and hands the work's error back.
func (r *RecordReconciler) fail(ctx context.Context, sa *corev1.ServiceAccount, cause error) (ctrl.Result, error) {
	sa.Labels["outcome"] = "failed"
	if err := r.Update(ctx, sa); err != nil {
		return ctrl.Result{}, fmt.Errorf("recording the failure: %w", err) // decoy: requeue-error (the recording's)
	}
	return ctrl.Result{}, cause // want "RecordReconciler/requeue-error"
}
