package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "LedgerReconciler/finalizer-const" "LedgerReconciler/finalizer-add" "LedgerReconciler/finalizer-cleanup" "LedgerReconciler/finalizer-remove" "LedgerReconciler/condition-types" "LedgerReconciler/requeue-success" "LedgerReconciler/interval-trace" "LedgerReconciler/drift"

// LedgerReconciler notes in its own ledger whether each Secret's source
// ConfigMap exists. Where the read finds it absent, it marks the source
// not ready first: the code records a failure there, so the wait after it
// is a retry, not a dependency's wait.
type LedgerReconciler struct {
	client.Client
	Ledger []metav1.Condition
}

// Reconcile checks the source and retries while it is missing.
func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LedgerReconciler/reconcile-entry"
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil { // want "LedgerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	source := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: secret.Namespace, Name: secret.Name + "-source"}, source); err != nil {
		apimeta.SetStatusCondition(&r.Ledger, metav1.Condition{Type: "SourceReady", Status: metav1.ConditionFalse, Reason: "Missing"})
		if apierrors.IsNotFound(err) {
			return ctrl.Result{RequeueAfter: 5 * time.Second}, nil
		}
		return ctrl.Result{}, err // want "LedgerReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Secrets.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
