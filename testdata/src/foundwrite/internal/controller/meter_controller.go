// Package controller holds the Meter reconciler.
package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	meterv1 "example.com/fixtures/foundwrite/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "drift" "interval-trace"

// MeterReconciler counts each pass of a Meter into its ledger, a ConfigMap
// some other party creates.
type MeterReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *MeterReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&meterv1.Meter{}).Complete(r)
}

// Reconcile records the pass in the Meter's ledger, when there is one.
func (r *MeterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	meter := &meterv1.Meter{}
	if err := r.Get(ctx, req.NamespacedName, meter); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.count(ctx, meter); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// count adds one to the Meter's entry of its ledger; a ledger not created
// yet counts nothing.
func (r *MeterReconciler) count(ctx context.Context, meter *meterv1.Meter) error {
	ledger := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: meter.Namespace, Name: meter.Spec.Ledger}, ledger); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	before := client.MergeFrom(ledger.DeepCopy())
	n, _ := strconv.Atoi(ledger.Data[meter.Name])
	if ledger.Data == nil {
		ledger.Data = map[string]string{}
	}
	ledger.Data[meter.Name] = strconv.Itoa(n + 1)
	return r.Patch(ctx, ledger, before) // want "write-unsettled"
}
