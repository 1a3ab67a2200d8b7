package controller

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "AdmitReconciler/finalizer-const" "AdmitReconciler/finalizer-add" "AdmitReconciler/finalizer-cleanup" "AdmitReconciler/finalizer-remove" "AdmitReconciler/condition-types" "AdmitReconciler/requeue-success" "AdmitReconciler/interval-trace" "AdmitReconciler/drift"

// AdmitReconciler admits a Job once: it makes the Job's ConfigMap and
// records the admission on the Job's status, in a status value it builds
// and copies in whole. A Job it has admitted carries the record, and its
// pass ends at the test that the record is there, before any write.
type AdmitReconciler struct {
	client.Client
}

// Reconcile admits a Job not yet admitted.
func (r *AdmitReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AdmitReconciler/reconcile-entry"
	var job batchv1.Job
	if err := r.Get(ctx, req.NamespacedName, &job); err != nil { // want "AdmitReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if job.Status.StartTime != nil {
		return ctrl.Result{}, nil
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: job.Name, Namespace: job.Namespace}}
	if err := r.Create(ctx, cm); err != nil && !apierrors.IsAlreadyExists(err) {
		return ctrl.Result{}, err
	}
	now := metav1.Now()
	if err := r.record(ctx, &job, &batchv1.JobStatus{StartTime: &now}); err != nil {
		return ctrl.Result{}, err // want "AdmitReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// record writes st as the Job's status.
func (r *AdmitReconciler) record(ctx context.Context, job *batchv1.Job, st *batchv1.JobStatus) error {
	job.Status = *st
	return r.Status().Update(ctx, job)
}

// SetupWithManager registers the reconciler for Jobs.
func (r *AdmitReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("admit").For(&batchv1.Job{}).Complete(r)
}
