package controller

import (
	"context"
	"strings"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/finorigins/api/v1"
)

// protector adds and removes one finalizer, named when it is made.
type protector struct {
	c         client.Client
	finalizer string
}

// newProtector is the protector of objects of a kind.
func newProtector(c client.Client, kind string) *protector {
	return &protector{c: c, finalizer: finalizerFor(kind)}
}

// finalizerFor names the finalizer of a kind.
func finalizerFor(kind string) string {
	return "storage.example.com/" + strings.ToLower(kind) // want "ShareReconciler/finalizer-const"
}

// protect adds the finalizer.
func (p *protector) protect(ctx context.Context, obj client.Object) error {
	if !controllerutil.AddFinalizer(obj, p.finalizer) { // want "ShareReconciler/finalizer-add"
		return nil
	}
	return p.c.Update(ctx, obj)
}

// release removes it.
func (p *protector) release(ctx context.Context, obj client.Object) error { // want "ShareReconciler/finalizer-cleanup"
	if !controllerutil.RemoveFinalizer(obj, p.finalizer) { // want "ShareReconciler/finalizer-remove"
		return nil
	}
	return p.c.Update(ctx, obj)
}

// want-none "ShareReconciler/condition-types" "ShareReconciler/requeue-success" "ShareReconciler/drift" "ShareReconciler/interval-trace"

// ShareReconciler holds each Share through a protector whose finalizer
// is a field its constructor fills from the kind's name.
type ShareReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *ShareReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Share{}).Complete(r)
}

// Reconcile protects the Share, and releases it when it is deleted.
func (r *ShareReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ShareReconciler/reconcile-entry"
	share := &v1.Share{}
	if err := r.Get(ctx, req.NamespacedName, share); err != nil { // want "ShareReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	p := newProtector(r.Client, "Share")
	if !share.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, p.release(ctx, share)
	}
	return ctrl.Result{}, p.protect(ctx, share) // want "ShareReconciler/requeue-error"
}
