// Package limit is a library's reconciler wrapper (a fixture's dependency,
// not a fixture): it holds the reconciler it is handed and calls it for
// each request, as rate limiters and conflict filters do.
package limit

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

type limited struct {
	name  string
	inner reconcile.Reconciler
}

// New wraps r under name.
func New(name string, r reconcile.Reconciler) reconcile.Reconciler {
	return &limited{name: name, inner: r}
}

// Reconcile hands the request to the wrapped reconciler.
func (l *limited) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	return l.inner.Reconcile(ctx, req)
}
