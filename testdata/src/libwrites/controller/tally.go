package controller

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tallyv1 "example.com/fixtures/libwrites/api/v1"
	"example.com/fixtures/patchlib/patch"
)

// want-none "TallyReconciler/finalizer-const" "TallyReconciler/finalizer-add" "TallyReconciler/finalizer-cleanup" "TallyReconciler/finalizer-remove" "TallyReconciler/condition-types" "TallyReconciler/requeue-success" "TallyReconciler/interval-trace"

// TallyReconciler counts the ConfigMaps of a Tally's namespace into its
// status, through the library's patch helper, only when the count it
// computed differs from the one the status holds: as the client's own
// status write under that test, whether the comparison is the drift the
// question asks for is not settled.
type TallyReconciler struct{ client.Client }

// Reconcile counts and, when the count changed, patches the Tally.
func (r *TallyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TallyReconciler/reconcile-entry"
	var t tallyv1.Tally
	if err := r.Get(ctx, req.NamespacedName, &t); err != nil { // want "TallyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var cms corev1.ConfigMapList
	if err := r.List(ctx, &cms, client.InNamespace(t.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	status := tallyv1.TallyStatus{Count: len(cms.Items)}
	if reflect.DeepEqual(t.Status, status) {
		return ctrl.Result{}, nil
	}
	helper := patch.NewHelper(&t, r.Client)
	t.Status = status
	return ctrl.Result{}, helper.Patch(ctx, &t) // want "TallyReconciler/requeue-error" "TallyReconciler/drift:unsettled"
}

// SetupWithManager registers the reconciler for Tallies.
func (r *TallyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tallyv1.Tally{}).Complete(r)
}
