package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/resultctors/result"
)

// want-none "RenewReconciler/drift"

const renewInterval = time.Hour // want "RenewReconciler/trace:constant"

// RenewReconciler touches each ServiceAccount every renewInterval; its
// named results are assigned from the constructors and handed back bare.
type RenewReconciler struct {
	client.Client
}

// Reconcile reads the ServiceAccount, touches it and polls.
func (r *RenewReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) { // want "RenewReconciler/reconcile-entry"
	sa := &corev1.ServiceAccount{}
	if err = r.Get(ctx, req.NamespacedName, sa); err != nil { // want "RenewReconciler/reread"
		res, err = result.FailedUnlessGone(ctx, apierrors.IsNotFound(err), err)
		return
	}
	if err = r.Update(ctx, sa); err != nil { // want "RenewReconciler/write-always"
		res, err = result.Failed(ctx, err, "renewing") // want "RenewReconciler/requeue-error"
		return
	}
	res, err = result.After(ctx, renewInterval, "renewed") // want "RenewReconciler/requeue-success" "RenewReconciler/trace:return"
	return
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *RenewReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}
