package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/finorigins/api/v1"
)

// FinalizerManager adds and removes an object's finalizers.
type FinalizerManager interface {
	AddFinalizers(ctx context.Context, obj client.Object, finalizers ...string) error
	RemoveFinalizers(ctx context.Context, obj client.Object, finalizers ...string) error
}

// NewFinalizerManager is the manager that updates objects through c.
func NewFinalizerManager(c client.Client) FinalizerManager {
	return &updatingManager{c: c}
}

// updatingManager updates the object after each change.
type updatingManager struct {
	c client.Client
}

// AddFinalizers adds the finalizers the object lacks.
func (m *updatingManager) AddFinalizers(ctx context.Context, obj client.Object, finalizers ...string) error {
	changed := false
	for _, f := range finalizers {
		changed = controllerutil.AddFinalizer(obj, f) || changed // want "MountReconciler/finalizer-add"
	}
	if !changed {
		return nil
	}
	return m.c.Update(ctx, obj)
}

// RemoveFinalizers removes the finalizers the object carries.
func (m *updatingManager) RemoveFinalizers(ctx context.Context, obj client.Object, finalizers ...string) error {
	changed := false
	for _, f := range finalizers {
		changed = controllerutil.RemoveFinalizer(obj, f) || changed // want "MountReconciler/finalizer-remove"
	}
	if !changed {
		return nil
	}
	return m.c.Update(ctx, obj)
}

// want-none "MountReconciler/condition-types" "MountReconciler/requeue-success" "MountReconciler/drift" "MountReconciler/interval-trace"

// MountReconciler holds each Mount until it is unmounted, through a
// finalizer manager.
type MountReconciler struct {
	client.Client
	Finalizers FinalizerManager
}

// SetupWithManager registers the reconciler with the manager.
func (r *MountReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Mount{}).Complete(r)
}

// Reconcile adds the finalizer, and unmounts the Mount when it is deleted.
func (r *MountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MountReconciler/reconcile-entry"
	mount := &v1.Mount{}
	if err := r.Get(ctx, req.NamespacedName, mount); err != nil { // want "MountReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !mount.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.unmount(ctx, mount)
	}
	return ctrl.Result{}, r.Finalizers.AddFinalizers(ctx, mount, v1.MountCleanup) // want "MountReconciler/requeue-error"
}

// unmount lets the deletion of a Mount go on.
func (r *MountReconciler) unmount(ctx context.Context, mount *v1.Mount) error { // want "MountReconciler/finalizer-cleanup"
	return r.Finalizers.RemoveFinalizers(ctx, mount, v1.MountCleanup)
}
