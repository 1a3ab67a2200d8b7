// Package wrap holds a generic reconciler: it reads the object of its
// type parameter by the request's key and hands it to the handler it
// wraps, one per kind.
package wrap

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Handler does the work for objects of one kind.
type Handler[T client.Object] interface {
	// New returns an empty object.
	New() T
	// Handle reconciles one object.
	Handle(ctx context.Context, obj T) (ctrl.Result, error)
}

type controller[T client.Object] struct {
	client  client.Client
	handler Handler[T]
}

// New wraps a handler into a reconciler.
func New[T client.Object](c client.Client, h Handler[T]) reconcile.Reconciler {
	return &controller[T]{client: c, handler: h}
}

// Reconcile reads the object and hands it to the handler.
func (c *controller[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "controller[ConfigMap]/reconcile-entry" "controller[Secret]/reconcile-entry"
	obj := c.handler.New()
	if err := c.client.Get(ctx, req.NamespacedName, obj); err != nil { // want "controller[ConfigMap]/reread" "controller[Secret]/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return c.handler.Handle(ctx, obj)
}
