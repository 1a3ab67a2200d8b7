package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// ledgerFinalizer keeps a Service until its ledger ConfigMap is deleted.
const ledgerFinalizer = "finshared.example.com/ledger" // want "LedgerReconciler/finalizer-const"

// LedgerReconciler keeps a ledger ConfigMap for each Service.
type LedgerReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for Services.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}

// Reconcile syncs the ledger on every pass; a deleted Service loses its
// finalizer once that has run.
func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LedgerReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "LedgerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !svc.DeletionTimestamp.IsZero() {
		if err := r.syncLedger(ctx, &svc); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&svc, ledgerFinalizer) // want "LedgerReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &svc)
	}
	if controllerutil.AddFinalizer(&svc, ledgerFinalizer) { // want "LedgerReconciler/finalizer-add"
		if err := r.Update(ctx, &svc); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, r.syncLedger(ctx, &svc) // want "LedgerReconciler/requeue-error"
}

// syncLedger makes the ledger of a live Service; a deleted one's ledger
// goes.
func (r *LedgerReconciler) syncLedger(ctx context.Context, svc *corev1.Service) error {
	if svc.DeletionTimestamp == nil {
		ledger := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: svc.Name + "-ledger", Namespace: svc.Namespace}}
		if err := r.Create(ctx, ledger); err != nil && !apierrors.IsAlreadyExists(err) { // want "LedgerReconciler/write-always"
			return err
		}
		return nil
	}
	log.FromContext(ctx).Info("dropping the ledger", "service", svc.Name)
	if err := r.dropLedger(ctx, svc); err != nil {
		return fmt.Errorf("drop the ledger of %s: %w", svc.Name, err)
	}
	return nil
}

// dropLedger deletes the Service's ledger.
func (r *LedgerReconciler) dropLedger(ctx context.Context, svc *corev1.Service) error { // want "LedgerReconciler/finalizer-cleanup"
	ledger := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: svc.Name + "-ledger", Namespace: svc.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, ledger))
}
