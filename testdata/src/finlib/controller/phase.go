package controller

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// PhaseReconciler releases a Namespace's claims when it terminates. A
// helper written for every kind adds or removes its finalizer, as its
// argument asks, in a retry that reads the object again; the deletion
// branch that removes it does no work, and the work runs where another
// deletion branch's phase is read: the cleanup is not settled, never a
// none, and never the helper that removes the finalizer.
// want-none "PhaseReconciler/finalizer-cleanup"
// want-none "PhaseReconciler/condition-types" "PhaseReconciler/requeue-success" "PhaseReconciler/interval-trace" "PhaseReconciler/drift"
type PhaseReconciler struct {
	client.Client
}

// phaseFinalizer holds a Namespace until its claims are released.
const phaseFinalizer = "finlib.example.com/phase" // want "PhaseReconciler/finalizer-const"

// finalizerOp says what updateFinalizer does.
type finalizerOp int

const (
	addFinalizer finalizerOp = iota
	removeFinalizer
)

// Reconcile records a deletion in the phase, releases on that phase, then
// adds or drops the finalizer.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	status := ns.Status.DeepCopy()
	markTerminating(&ns, status)
	if status.Phase == corev1.NamespaceTerminating {
		if err := r.release(ctx, &ns); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.handleFinalizer(&ns); err != nil {
		return ctrl.Result{}, err // want "PhaseReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// markTerminating records a deletion in the phase: the code falls through
// to the record past a return for an object that is not being deleted.
func markTerminating(ns *corev1.Namespace, status *corev1.NamespaceStatus) {
	if ns.DeletionTimestamp.IsZero() {
		return
	}
	status.Phase = corev1.NamespaceTerminating
}

// handleFinalizer drops the finalizer on deletion, else adds it.
func (r *PhaseReconciler) handleFinalizer(ns *corev1.Namespace) error {
	if !ns.DeletionTimestamp.IsZero() {
		return updateFinalizer(r.Client, ns, removeFinalizer, phaseFinalizer)
	}
	if !controllerutil.ContainsFinalizer(ns, phaseFinalizer) {
		return updateFinalizer(r.Client, ns, addFinalizer, phaseFinalizer)
	}
	return nil
}

// release deletes the Namespace's claims.
func (r *PhaseReconciler) release(ctx context.Context, ns *corev1.Namespace) error {
	return r.DeleteAllOf(ctx, &corev1.PersistentVolumeClaim{}, client.InNamespace(ns.Name))
}

// updateFinalizer adds or removes a finalizer, reading the object again on
// each try.
func updateFinalizer(c client.Client, obj client.Object, op finalizerOp, finalizer string) error {
	key := client.ObjectKeyFromObject(obj)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		fresh := obj.DeepCopyObject().(client.Object)
		if err := c.Get(context.TODO(), key, fresh); err != nil {
			return err
		}
		list := fresh.GetFinalizers()
		switch op {
		case addFinalizer:
			if slices.Contains(list, finalizer) {
				return nil
			}
			list = append(list, finalizer) // want "PhaseReconciler/finalizer-add"
		case removeFinalizer:
			if !slices.Contains(list, finalizer) {
				return nil
			}
			list = slices.DeleteFunc(slices.Clone(list), func(f string) bool { return f == finalizer }) // want "PhaseReconciler/finalizer-remove"
		}
		fresh.SetFinalizers(list)
		return c.Update(context.TODO(), fresh)
	})
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *PhaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Named("phase").Complete(r)
}
