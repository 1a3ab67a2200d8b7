// Package controller holds two reconcilers whose library calls are routed
// out of sight of their own syntax: ViaReconciler's through a generic
// function that hands back the func value it is given, IfaceReconciler's
// through one-method interfaces its receivers are converted to at the call.
package controller

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "requeue-success" "interval-trace" "condition-types" "drift"

const (
	// viaFinalizer guards a ConfigMap until its cleanup has run.
	viaFinalizer = "example.com/via" // want "ViaReconciler/finalizer-const"
	// ifaceFinalizer guards a Secret until its cleanup has run.
	ifaceFinalizer = "example.com/iface" // want "IfaceReconciler/finalizer-const"
)

// via hands back the func value it is given.
func via[F any](f F) F {
	return f
}

// ViaReconciler guards ConfigMaps with a finalizer, calling the library
// through via.
type ViaReconciler struct {
	client.Client
}

// Reconcile adds the finalizer to one ConfigMap, or removes it once the
// ConfigMap is being deleted.
func (r *ViaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ViaReconciler/reconcile-entry"
	defaults := &corev1.ConfigMap{}
	// decoy: reread (another object, by a fixed key, through via too)
	if err := via(r.Get)(ctx, types.NamespacedName{Namespace: "kube-system", Name: "defaults"}, defaults); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cm := &corev1.ConfigMap{}
	if err := via(r.Get)(ctx, req.NamespacedName, cm); err != nil { // want "ViaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		if err := via(r.release)(ctx, cm); err != nil {
			return ctrl.Result{}, err
		}
		via(controllerutil.RemoveFinalizer)(cm, viaFinalizer) // want "ViaReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, cm)
	}
	// The finalizer is added through via as well.
	via(controllerutil.AddFinalizer)(cm, viaFinalizer) // want "ViaReconciler/finalizer-add"

	if err := via(r.Update)(ctx, cm); err != nil { // want "ViaReconciler/write-always"
		return ctrl.Result{}, err // want "ViaReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// release deletes the ConfigMap's copy kept for it.
func (r *ViaReconciler) release(ctx context.Context, cm *corev1.ConfigMap) error { // want "ViaReconciler/finalizer-cleanup"
	cp := &corev1.ConfigMap{}
	cp.Namespace, cp.Name = cm.Namespace, cm.Name+"-copy"
	return client.IgnoreNotFound(r.Delete(ctx, cp))
}

// reader gets an object by its key.
type reader interface {
	Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error
}

// writer updates an object.
type writer interface {
	Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error
}

// cleaner releases what a Secret being deleted holds.
type cleaner interface {
	cleanup(ctx context.Context, s *corev1.Secret) error
}

// errNotCached says the memo holds no copy of an object.
var errNotCached = errors.New("not cached")

// memo is a reader that holds nothing: every Get misses.
type memo struct{}

// Get reports that no object is cached.
func (memo) Get(context.Context, client.ObjectKey, client.Object, ...client.GetOption) error {
	return errNotCached
}

// pick hands back rd after n more calls of itself, returned whole: a
// value followed through it comes back to the same return.
func pick(rd reader, n int) (reader, error) {
	if n <= 0 {
		return rd, nil
	}
	return pick(rd, n-1)
}

// IfaceReconciler guards Secrets with a finalizer, calling the library
// through interfaces.
type IfaceReconciler struct {
	client.Client
	cache memo
}

// Reconcile adds the finalizer to one Secret, or removes it once the
// Secret is being deleted.
func (r *IfaceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "IfaceReconciler/reconcile-entry"
	s := &corev1.Secret{}
	// decoy: reread (the memo's Get, by the key, reads nothing)
	if err := reader(r.cache).Get(ctx, req.NamespacedName, s); err == nil {
		return ctrl.Result{}, nil
	}
	// decoy: reread (a recursive helper hands back the memo again)
	if rd, err := pick(r.cache, 2); err == nil && rd.Get(ctx, req.NamespacedName, s) == nil {
		return ctrl.Result{}, nil
	}
	if err := reader(r.Client).Get(ctx, req.NamespacedName, s); err != nil { // want "IfaceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !s.DeletionTimestamp.IsZero() {
		if err := cleaner(r).cleanup(ctx, s); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.Update(ctx, s)
	}
	controllerutil.AddFinalizer(s, ifaceFinalizer)   // want "IfaceReconciler/finalizer-add"
	if err := writer(r).Update(ctx, s); err != nil { // want "IfaceReconciler/write-always"
		return ctrl.Result{}, err // want "IfaceReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// cleanup deletes the Secret's copy, then lets the Secret go.
func (r *IfaceReconciler) cleanup(ctx context.Context, s *corev1.Secret) error { // want "IfaceReconciler/finalizer-cleanup"
	cp := &corev1.Secret{}
	cp.Namespace, cp.Name = s.Namespace, s.Name+"-copy"
	if err := r.Delete(ctx, cp); client.IgnoreNotFound(err) != nil {
		return err
	}
	controllerutil.RemoveFinalizer(s, ifaceFinalizer) // want "IfaceReconciler/finalizer-remove"
	return nil
}

// Setup registers both reconcilers.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&ViaReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(&IfaceReconciler{Client: mgr.GetClient()})
}
