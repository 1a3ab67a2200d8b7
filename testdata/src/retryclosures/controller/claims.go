// Package controller holds two reconcilers that add and remove their
// finalizers through one retry helper of the tree, each handing it
// closures of its own, and a third with no finalizer that hands it one too. The call graph has one node for the helper's
// function parameter, so every closure handed to it looks like a callee of
// each caller's call; a closure that only runs while the function making it
// runs is reached from that function alone, never from another
// reconciler's call of the helper. The cache reconciler's closures reach
// the object through a claim they capture (cl.obj, an interface field): what
// the claim holds, not the claim, says whose finalizer changes.
package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// cacheFinalizer keeps a cached ConfigMap until its copies are dropped.
const cacheFinalizer = "retryclosures.example.com/cache" // want "CacheReconciler/finalizer-const"

// tokenFinalizer keeps a token Secret until it is revoked.
const tokenFinalizer = "retryclosures.example.com/token" // want "TokenReconciler/finalizer-const"

// retry runs fn until it succeeds, three times at most.
func retry(fn func() error) error {
	var err error
	for range 3 {
		if err = fn(); err == nil {
			return nil
		}
	}
	return err
}

// addFinalizer adds name to the object and writes it, unless it is there.
func addFinalizer(ctx context.Context, c client.Client, obj client.Object, name string) error {
	if controllerutil.ContainsFinalizer(obj, name) {
		return nil
	}
	controllerutil.AddFinalizer(obj, name) // want "finalizer-add"
	return c.Update(ctx, obj)
}

// removeFinalizer drops name from the object and writes it, when it is
// there.
func removeFinalizer(ctx context.Context, c client.Client, obj client.Object, name string) error {
	if !controllerutil.ContainsFinalizer(obj, name) {
		return nil
	}
	controllerutil.RemoveFinalizer(obj, name) // want "finalizer-remove"
	return c.Update(ctx, obj)
}

// claim is an object held for a reconciler, with the client that writes it.
type claim struct {
	c   client.Client
	obj client.Object
}

// hold adds the cache finalizer to the claimed object.
func (cl *claim) hold(ctx context.Context) error {
	return retry(func() error {
		return addFinalizer(ctx, cl.c, cl.obj, cacheFinalizer)
	})
}

// release removes the cache finalizer from the claimed object.
func (cl *claim) release(ctx context.Context) error {
	return retry(func() error {
		return removeFinalizer(ctx, cl.c, cl.obj, cacheFinalizer)
	})
}

// CacheReconciler caches ConfigMaps.
type CacheReconciler struct {
	client.Client
}

// Reconcile claims one ConfigMap, or lets it go on deletion.
func (r *CacheReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CacheReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "CacheReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cl := &claim{c: r.Client, obj: &cm}
	if !cm.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.drop(ctx, cl)
	}
	return ctrl.Result{}, cl.hold(ctx) // want "CacheReconciler/requeue-error"
}

// drop forgets the cached copies and releases the ConfigMap.
func (r *CacheReconciler) drop(ctx context.Context, cl *claim) error { // want "CacheReconciler/finalizer-cleanup"
	if err := cl.release(ctx); err != nil {
		return fmt.Errorf("releasing the cache: %w", err)
	}
	return nil
}

// TokenReconciler issues tokens held in Secrets.
type TokenReconciler struct {
	client.Client
}

// Reconcile marks one Secret as holding a token, or revokes it on deletion.
func (r *TokenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TokenReconciler/reconcile-entry"
	var sec corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &sec); err != nil { // want "TokenReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !sec.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.revoke(ctx, &sec)
	}
	err := retry(func() error {
		return addFinalizer(ctx, r.Client, &sec, tokenFinalizer)
	})
	return ctrl.Result{}, err // want "TokenReconciler/requeue-error"
}

// revoke revokes the Secret's token and lets it go.
func (r *TokenReconciler) revoke(ctx context.Context, sec *corev1.Secret) error { // want "TokenReconciler/finalizer-cleanup"
	if err := retry(func() error {
		return removeFinalizer(ctx, r.Client, sec, tokenFinalizer)
	}); err != nil {
		return fmt.Errorf("revoking the token: %w", err)
	}
	return nil
}

// LabelReconciler labels Services through the same retry helper; it has
// no finalizer of its own.
type LabelReconciler struct {
	client.Client
}

// want-none "LabelReconciler/finalizer-const" "LabelReconciler/finalizer-add" "LabelReconciler/finalizer-cleanup" "LabelReconciler/finalizer-remove"

// Reconcile labels one Service once.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LabelReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "LabelReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Labels["retryclosures.example.com/seen"] == "yes" {
		return ctrl.Result{}, nil
	}
	err := retry(func() error {
		if svc.Labels == nil {
			svc.Labels = map[string]string{}
		}
		svc.Labels["retryclosures.example.com/seen"] = "yes"
		return r.Update(ctx, &svc)
	})
	return ctrl.Result{}, err // want "LabelReconciler/requeue-error"
}

// Setup registers the three reconcilers.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("cache").Complete(&CacheReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("label").Complete(&LabelReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("token").Complete(&TokenReconciler{Client: mgr.GetClient()})
}
