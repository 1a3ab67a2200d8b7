package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/wrappedkind/api/v1"
)

// The ShelfReconciler reads its Shelf through a fetcher built with the
// request's namespace, by the name of the object handed to it: a key
// ctrlcmp does not trace to the request's, so the re-read is not settled,
// never none.

// want-none "ShelfReconciler/finalizer-const" "ShelfReconciler/finalizer-add" "ShelfReconciler/finalizer-cleanup" "ShelfReconciler/finalizer-remove" "ShelfReconciler/condition-types"
// want-none "ShelfReconciler/requeue-success" "ShelfReconciler/interval-trace" "ShelfReconciler/reread" "ShelfReconciler/drift"

// fetcher reads objects of one namespace by the names they carry.
type fetcher struct {
	client.Reader
	namespace string
}

// fetch reads o by its name.
func (f fetcher) fetch(ctx context.Context, o client.Object) error {
	return f.Get(ctx, client.ObjectKey{Namespace: f.namespace, Name: o.GetName()}, o)
}

// ShelfReconciler reads each Shelf.
type ShelfReconciler struct{ client.Client }

// Reconcile reads the Shelf; nothing else is asked of it here.
func (r *ShelfReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ShelfReconciler/reconcile-entry"
	f := fetcher{Reader: r.Client, namespace: req.Namespace}
	shelf := &v1.Shelf{}
	shelf.Name = req.Name
	if err := f.fetch(ctx, shelf); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "ShelfReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Shelves.
func (r *ShelfReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Shelf{}).Complete(r)
}
