// Package controller holds Report reconcilers whose final return hands
// back an error variable with the success requeue: nil there on every path
// (each value it may hold was tested before), or set only by the status
// write that reports the pass.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/splitends/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// reportEvery is how often a Report is published again.
const reportEvery = 5 * time.Minute // want "PublishReconciler/trace:constant" "RecordReconciler/trace:constant"

// PublishReconciler publishes a Report when its Spec asks; the error its
// final return hands back was tested where it was set, so that return
// only succeeds.
type PublishReconciler struct {
	client.Client
}

// Reconcile publishes the Report and asks for it again later.
func (r *PublishReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PublishReconciler/reconcile-entry"
	var rep v1.Report
	if err := r.Get(ctx, req.NamespacedName, &rep); err != nil { // want "PublishReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var err error
	if rep.Spec.Publish {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: rep.Name, Namespace: rep.Namespace}}
		err = r.Update(ctx, cm)
		if err != nil {
			return ctrl.Result{}, err // want "PublishReconciler/requeue-error"
		}
	}
	return ctrl.Result{RequeueAfter: reportEvery}, err // want "PublishReconciler/requeue-success" "PublishReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Reports.
func (r *PublishReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("publish").For(&v1.Report{}).Complete(r)
}

// RecordReconciler publishes a Report, then records that it did in its
// status; the error its final return hands back is that status write's
// alone: a failure of the report, after the work succeeded.
type RecordReconciler struct {
	client.Client
}

// Reconcile publishes the Report, records it and asks for it again later.
func (r *RecordReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RecordReconciler/reconcile-entry"
	var rep v1.Report
	if err := r.Get(ctx, req.NamespacedName, &rep); err != nil { // want "RecordReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: rep.Name, Namespace: rep.Namespace}}
	if err := r.Update(ctx, cm); err != nil { // want "RecordReconciler/write-always"
		return ctrl.Result{}, err // want "RecordReconciler/requeue-error"
	}
	var err error
	if !rep.Status.Published {
		rep.Status.Published = true
		err = r.Status().Update(ctx, &rep)
	}
	return ctrl.Result{RequeueAfter: reportEvery}, err // want "RecordReconciler/requeue-success" "RecordReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Reports.
func (r *RecordReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("record").For(&v1.Report{}).Complete(r)
}
