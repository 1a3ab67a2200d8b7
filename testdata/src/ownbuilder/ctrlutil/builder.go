// Package ctrlutil is the operator's own layer over controller-runtime's
// builder: every controller is registered through it, and the reconciler
// it is given is wrapped before the library sees it.
package ctrlutil

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Builder wraps the library's builder.
type Builder struct {
	builder *builder.Builder
}

// NewControllerManagedBy starts a builder.
func NewControllerManagedBy(mgr ctrl.Manager) *Builder {
	return &Builder{builder: ctrl.NewControllerManagedBy(mgr)}
}

// For names the reconciled type.
func (b *Builder) For(object client.Object) *Builder {
	b.builder.For(object)
	return b
}

// Owns watches a child type.
func (b *Builder) Owns(object client.Object) *Builder {
	b.builder.Owns(object)
	return b
}

// Build registers the reconciler, wrapped so that it runs at most once a
// second per object.
func (b *Builder) Build(_ context.Context, r reconcile.Reconciler) (controller.Controller, error) {
	return b.builder.Build(&limited{inner: r, every: time.Second})
}

// Complete registers the reconciler.
func (b *Builder) Complete(ctx context.Context, r reconcile.Reconciler) error {
	_, err := b.Build(ctx, r)
	return err
}

// limited runs the reconciler it holds, rate-limited.
type limited struct {
	inner reconcile.Reconciler
	every time.Duration
}

// Reconcile hands the request to the held reconciler.
func (l *limited) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	start := time.Now()
	res, err := l.inner.Reconcile(ctx, req)
	if time.Since(start) < l.every && res.RequeueAfter == 0 && err == nil {
		return res, nil
	}
	return res, err
}

// Setup registers a reconciler of one object type, traced.
func Setup(mgr ctrl.Manager, object client.Object, r reconcile.Reconciler) error {
	return ctrl.NewControllerManagedBy(mgr).For(object).Complete(traced{r})
}

// traced logs around the reconciler it holds.
type traced struct {
	next reconcile.Reconciler
}

// Reconcile hands the request on.
func (t traced) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	ctrl.LoggerFrom(ctx).V(1).Info("reconciling", "request", req)
	return t.next.Reconcile(ctx, req)
}
