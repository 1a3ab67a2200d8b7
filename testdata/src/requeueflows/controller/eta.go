package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// terminationWait is how long the reconciler gives an old child to go.
const terminationWait = 5 * time.Second // want "EtaReconciler/trace:constant"

// EtaReconciler keeps a ConfigMap beside every ServiceAccount.
type EtaReconciler struct {
	client.Client
}

// Reconcile creates the ServiceAccount's ConfigMap, once an old one has
// finished terminating.
func (r *EtaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "EtaReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "EtaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var child corev1.ConfigMap
	err := r.Get(ctx, types.NamespacedName{Namespace: sa.Namespace, Name: sa.Name + "-config"}, &child) // decoy: reread (the child)
	if err == nil && !child.DeletionTimestamp.IsZero() {
		return ctrl.Result{RequeueAfter: terminationWait}, nil // want "EtaReconciler/requeue-success" "EtaReconciler/trace:return"
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	if err == nil {
		return ctrl.Result{}, nil
	}
	child = corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: sa.Namespace, Name: sa.Name + "-config"}}
	if err := r.Create(ctx, &child); err != nil {
		return ctrl.Result{}, err // want "EtaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *EtaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
