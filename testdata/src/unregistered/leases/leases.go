// Package leases holds reconcilers that a table names; the process starts
// the ones its flags ask for.
package leases

import (
	"context"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Table makes each reconciler by its name.
var Table = map[string]func(client.Client) reconcile.Reconciler{}

// Register adds a reconciler's constructor to the table.
func Register(name string, make func(client.Client) reconcile.Reconciler) {
	Table[name] = make
}

// want-none "LeaseReconciler/finalizer-const" "LeaseReconciler/finalizer-add" "LeaseReconciler/finalizer-cleanup" "LeaseReconciler/finalizer-remove"
// want-none "LeaseReconciler/condition-types" "LeaseReconciler/drift"

// renewEvery is how often a Lease is looked at.
const renewEvery = time.Minute // want "LeaseReconciler/trace:constant"

// LeaseReconciler looks at every Lease once a minute.
type LeaseReconciler struct {
	client.Client
}

// Reconcile reads one Lease.
func (r *LeaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LeaseReconciler/reconcile-entry"
	var lease coordinationv1.Lease
	if err := r.Get(ctx, req.NamespacedName, &lease); err != nil { // want "LeaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "LeaseReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: renewEvery}, nil // want "LeaseReconciler/requeue-success" "LeaseReconciler/trace:return"
}
