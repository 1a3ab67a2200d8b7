package controller

import (
	"context"
	"reflect"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "StatusSyncReconciler/finalizer-const" "StatusSyncReconciler/finalizer-add" "StatusSyncReconciler/finalizer-cleanup" "StatusSyncReconciler/finalizer-remove" "StatusSyncReconciler/condition-types" "StatusSyncReconciler/requeue-success" "StatusSyncReconciler/interval-trace"

// StatusSyncReconciler records how many ConfigMaps a Bundle's namespace
// holds in its status, writing the status only when the one this pass
// computed differs from the one read from the cluster. The Bundle is the tree's own kind, whose
// status the controller reports; whether comparing it before writing it
// back is the drift the question asks for, the source does not settle.
type StatusSyncReconciler struct {
	client.Client
}

// Reconcile looks at one Bundle.
func (r *StatusSyncReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StatusSyncReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "StatusSyncReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var cms corev1.ConfigMapList
	if err := r.List(ctx, &cms, client.InNamespace(b.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	status := v1.BundleStatus{SeenVersion: strconv.Itoa(len(cms.Items))}
	if reflect.DeepEqual(b.Status, status) {
		return ctrl.Result{}, nil
	}
	b.Status = status
	return ctrl.Result{}, r.Status().Update(ctx, b) // want "StatusSyncReconciler/requeue-error" "StatusSyncReconciler/drift:unsettled"
}

// SetupWithManager registers the reconciler for Bundles.
func (r *StatusSyncReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("statussync").For(&v1.Bundle{}).Complete(r)
}
