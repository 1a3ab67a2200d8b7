package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1 "example.com/fixtures/condflows/api/v1"
	"example.com/fixtures/condflows/status"
)

// BetaReconciler reconciles Betas.
type BetaReconciler struct {
	client.Client
}

// Reconcile stores the conditions another package computes on a copy of
// the Beta and writes the copy's status.
func (r *BetaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BetaReconciler/reconcile-entry"
	obj := &v1.Beta{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "BetaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	updated := obj.DeepCopy()
	ready, conds := status.MakeStatusConditions(updated, obj.Status.Phase)
	updated.Status.Conditions = conds // want "BetaReconciler/condition-set:Ready" "BetaReconciler/condition-set:Scheduled"

	// Decoy: a preview list that is only logged.
	log.FromContext(ctx).Info("preview", "ready", ready, "next", status.Preview("Next"))

	if err := r.Status().Update(ctx, updated); err != nil { // want "BetaReconciler/write-always"
		return ctrl.Result{}, err // want "BetaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Betas.
func (r *BetaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Beta{}).Complete(r)
}
