package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// want-none "TallyHookReconciler/finalizer-const" "TallyHookReconciler/finalizer-add" "TallyHookReconciler/finalizer-cleanup" "TallyHookReconciler/finalizer-remove"
// want-none "TallyHookReconciler/requeue-success" "TallyHookReconciler/interval-trace" "TallyHookReconciler/drift" "TallyHookReconciler/condition-types"

// TallyHookReconciler keeps its tallies in a map as TallyReconciler does,
// but hands the map to checks of an interface that no type of the tree
// implements: they may store keys of their own, so the types are not
// settled (TestConditionsMapHandedUnread).
type TallyHookReconciler struct {
	client.Client
	Checks Checker
}

// Checker runs checks a caller plugs in, each tallying what it finds.
type Checker interface {
	Run(found tallies)
}

// Reconcile runs the plugged checks and writes their tallies as the
// Widget's conditions.
func (r *TallyHookReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TallyHookReconciler/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "TallyHookReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	found := tallies{}
	found.passed(v1.WidgetSynced)
	r.Checks.Run(found)
	for _, c := range found.conditions(obj.Generation) {
		meta.SetStatusCondition(&obj.Status.Conditions, c)
	}
	return ctrl.Result{}, r.Status().Update(ctx, &obj) // want "TallyHookReconciler/requeue-error" "TallyHookReconciler/write-always"
}

// SetupWithManager registers the reconciler for Widgets.
func (r *TallyHookReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Named("tallyhook").Complete(r)
}
