package controller

import (
	"context"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condflows/api/v1"
)

// GammaReconciler reconciles Gammas.
type GammaReconciler struct {
	client.Client
}

// Reconcile sets a condition on a status value of its own and sends it
// for the Gamma by a server-side apply of the status.
func (r *GammaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GammaReconciler/reconcile-entry"
	var obj v1.Gamma
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "GammaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	st := v1.Status{Phase: "Applied"}
	apimeta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: v1.GammaApplied, Status: metav1.ConditionTrue, Reason: "Applied"}) // want "GammaReconciler/condition-set:Applied"

	// Decoy: a draft status that is never sent.
	draft := v1.Status{}
	apimeta.SetStatusCondition(&draft.Conditions, metav1.Condition{Type: v1.GammaDraft, Status: metav1.ConditionUnknown, Reason: "Draft"})
	_ = draft

	patch := &v1.Gamma{
		TypeMeta:   metav1.TypeMeta{APIVersion: "condflows.example.com/v1", Kind: "Gamma"},
		ObjectMeta: metav1.ObjectMeta{Namespace: obj.Namespace, Name: obj.Name},
		Status:     st,
	}
	if err := r.Status().Patch(ctx, patch, client.Apply, client.FieldOwner("gamma-controller"), client.ForceOwnership); err != nil { // want "GammaReconciler/write-always"
		return ctrl.Result{}, err // want "GammaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Gammas.
func (r *GammaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gamma{}).Complete(r)
}
