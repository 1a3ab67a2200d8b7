package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "DiffStatusReconciler/finalizer-const" "DiffStatusReconciler/finalizer-add" "DiffStatusReconciler/finalizer-cleanup" "DiffStatusReconciler/finalizer-remove" "DiffStatusReconciler/condition-types" "DiffStatusReconciler/requeue-success" "DiffStatusReconciler/interval-trace" "DiffStatusReconciler/drift"

// DiffStatusReconciler records a Bundle's resource version in its status
// through a helper it hands the rest of the pass, which patches the status
// only when the merge patch between the Bundle as read and as the pass
// left it is not empty: an unchanged Bundle's pass writes nothing.
type DiffStatusReconciler struct {
	client.Client
}

// Reconcile looks at one Bundle.
func (r *DiffStatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DiffStatusReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "DiffStatusReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	orig := b.DeepCopyObject().(*v1.Bundle)
	b.Status.SeenVersion = b.ResourceVersion
	return ctrl.Result{}, r.patchStatus(ctx, b, orig) // want "DiffStatusReconciler/requeue-error"
}

// patchStatus patches the status when it changed.
func (r *DiffStatusReconciler) patchStatus(ctx context.Context, b, orig *v1.Bundle) error {
	patch := client.MergeFrom(orig)
	if data, err := patch.Data(b); err != nil {
		return err
	} else if string(data) == "{}" {
		return nil
	}
	return r.Status().Patch(ctx, b, patch)
}

// SetupWithManager registers the reconciler for Bundles.
func (r *DiffStatusReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("diffstatus").For(&v1.Bundle{}).Complete(r)
}
