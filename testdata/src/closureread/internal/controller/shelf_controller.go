// Package controller holds the Shelf reconciler.
package controller

import (
	"context"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	shelfv1 "example.com/fixtures/closureread/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// ShelfReconciler records which generation of a Shelf it has seen.
type ShelfReconciler struct {
	client.Client
	Reader client.Reader
}

// shelfFetch reads a Shelf when it is called.
type shelfFetch func() (*shelfv1.Shelf, error)

// SetupWithManager registers the reconciler with the manager.
func (r *ShelfReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&shelfv1.Shelf{}).Complete(r)
}

// Reconcile reads the Shelf through the function fetcher hands back, then
// stores its generation, reading it again before each try of the write.
func (r *ShelfReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	shelf, err := r.fetcher(ctx, req.NamespacedName)()
	if apierrors.IsNotFound(err) {
		return ctrl.Result{}, nil
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := r.Get(ctx, req.NamespacedName, shelf); err != nil {
			return err
		}
		shelf.Status.ObservedGeneration = shelf.Generation
		return r.Status().Update(ctx, shelf) // want "write-always"
	})
	return ctrl.Result{}, err // want "requeue-error"
}

// fetcher returns a function that reads the Shelf named by key from the
// API server, not the cache.
func (r *ShelfReconciler) fetcher(ctx context.Context, key types.NamespacedName) shelfFetch {
	return func() (*shelfv1.Shelf, error) {
		shelf := &shelfv1.Shelf{}
		if err := r.Reader.Get(ctx, key, shelf); err != nil { // want "reread"
			return nil, err
		}
		return shelf, nil
	}
}
