package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// want-none "ReplicaReconciler/finalizer-const" "ReplicaReconciler/finalizer-add" "ReplicaReconciler/finalizer-cleanup" "ReplicaReconciler/finalizer-remove" "ReplicaReconciler/condition-types" "ReplicaReconciler/requeue-success" "ReplicaReconciler/interval-trace" "ReplicaReconciler/drift"

// ReplicaReconciler copies the conditions of the Widget a Replica is named
// after onto the Replica: it names no condition type of its own, and the
// types it sets are whatever the Widget's controller sets, so whether a
// condition is set, and which, is not settled (no "none").
type ReplicaReconciler struct {
	client.Client
}

// Reconcile copies the Widget's conditions onto the Replica.
func (r *ReplicaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReplicaReconciler/reconcile-entry"
	var rep v1.Replica
	if err := r.Get(ctx, req.NamespacedName, &rep); err != nil { // want "ReplicaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var w v1.Widget
	if err := r.Get(ctx, types.NamespacedName{Namespace: rep.Namespace, Name: rep.Name}, &w); err != nil { // decoy: reread (the Widget)
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	rep.Status.Conditions = append([]metav1.Condition{}, w.Status.Conditions...)
	if err := r.Status().Update(ctx, &rep); err != nil { // want "ReplicaReconciler/write-always"
		return ctrl.Result{}, err // want "ReplicaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Replicas.
func (r *ReplicaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Replica{}).Complete(r)
}
