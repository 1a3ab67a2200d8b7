// Package controller holds reconcilers whose results reach the entry's
// return in two ways the requeue rows follow. ReportReconciler hands the
// result and error of its inner pass to a reporting helper that returns
// them as they came (on its other return it makes its own): the requeues
// are the inner pass's returns, and the entry's return, which hands back
// the main work's error, is the failure's. StampReconciler returns a
// requeue beside the error of a check, under the test that finds its
// Secret in sync: where the check passes, that return is the success
// requeue, and a write after the test is not proven to be made on every
// pass.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ReportReconciler/finalizer-const" "ReportReconciler/finalizer-add" "ReportReconciler/finalizer-cleanup" "ReportReconciler/finalizer-remove" "ReportReconciler/condition-types" "ReportReconciler/drift"

// ReportReconciler keeps a Secret beside each ConfigMap, looking again
// every ten minutes, and records an event of each pass.
type ReportReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile runs the pass and reports it.
func (r *ReportReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReportReconciler/reconcile-entry"
	res, cm, err := r.reconcile(ctx, req)
	return report(r.Recorder, cm, res, err)
}

// reconcile makes the ConfigMap's Secret when it is missing.
func (r *ReportReconciler) reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, *corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "ReportReconciler/reread"
		return ctrl.Result{}, nil, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	if err := r.Create(ctx, secret); client.IgnoreAlreadyExists(err) != nil { // want "ReportReconciler/write-always"
		return ctrl.Result{}, cm, err // want "ReportReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: 10 * time.Minute}, cm, nil // want "ReportReconciler/requeue-success" "ReportReconciler/trace:return" "ReportReconciler/trace:constant"
}

// report records an event of the pass when it read an object, and hands
// back the pass's result and error.
func report(rec record.EventRecorder, cm *corev1.ConfigMap, res ctrl.Result, err error) (ctrl.Result, error) {
	if cm == nil {
		return ctrl.Result{}, nil
	}
	if err != nil {
		rec.Event(cm, corev1.EventTypeWarning, "Failed", err.Error())
	} else {
		rec.Event(cm, corev1.EventTypeNormal, "Synced", "the Secret exists")
	}
	return res, err
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ReportReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
