package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1 "example.com/fixtures/driftguards/api/v1"
)

const handoffFinalizer = "example.com/handoff" // want "HandoffReconciler/finalizer-const"

// want-none "HandoffReconciler/condition-types" "HandoffReconciler/requeue-success" "HandoffReconciler/interval-trace" "HandoffReconciler/drift"

// HandoffReconciler acts on a Bundle while it is handed to it: a predicate
// that holds during the deletion, until the cleanup is marked done, among
// other times. Its negation tests no deletion; the deletion's branch is
// the sync's.
type HandoffReconciler struct {
	client.Client
	paused bool
}

// Reconcile syncs a Bundle handed to this controller.
func (r *HandoffReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HandoffReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "HandoffReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !handedHere(b) {
		return ctrl.Result{}, nil
	}
	err := r.sync(ctx, b)
	if err != nil {
		b.Status.SeenVersion = "failed"
		if uerr := r.Status().Update(ctx, b); uerr != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, err // want "HandoffReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// handedHere holds while the Bundle is this controller's: once it has data,
// and on deletion until its cleanup is marked done.
func handedHere(b *v1.Bundle) bool {
	if b.Spec.Data == nil {
		return false
	}
	if !b.DeletionTimestamp.IsZero() {
		_, done := b.Annotations["example.com/cleaned"]
		return !done
	}
	return true
}

func (r *HandoffReconciler) sync(ctx context.Context, b *v1.Bundle) error {
	if r.paused {
		return nil
	}
	if !b.DeletionTimestamp.IsZero() {
		log.FromContext(ctx).Info("releasing the Bundle")
		return r.release(ctx, b)
	}
	if controllerutil.AddFinalizer(b, handoffFinalizer) { // want "HandoffReconciler/finalizer-add"
		if err := r.Update(ctx, b); err != nil {
			return err
		}
	}
	return createMissing(ctx, r.Client, handoffOf(b))
}

// release deletes the Bundle's ConfigMap and drops the finalizer.
func (r *HandoffReconciler) release(ctx context.Context, b *v1.Bundle) error { // want "HandoffReconciler/finalizer-cleanup"
	if err := client.IgnoreNotFound(r.Delete(ctx, handoffOf(b))); err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(b, handoffFinalizer) // want "HandoffReconciler/finalizer-remove"
	return r.Update(ctx, b)
}

func handoffOf(b *v1.Bundle) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name + "-handoff"}, Data: b.Spec.Data}
}

// SetupWithManager registers the reconciler for Bundles.
func (r *HandoffReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("handoff").For(&v1.Bundle{}).Complete(r)
}
