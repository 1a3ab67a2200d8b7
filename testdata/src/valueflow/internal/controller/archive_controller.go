package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ArchiveReconciler/finalizer-const" "ArchiveReconciler/finalizer-add" "ArchiveReconciler/finalizer-cleanup" "ArchiveReconciler/finalizer-remove" "ArchiveReconciler/condition-types" "ArchiveReconciler/drift"

// archiveInterval is how often a Secret is archived again.
const archiveInterval = time.Hour

// resultBuilder turns the outcome of a pass into the reconciler's result.
type resultBuilder interface {
	build(err error) (ctrl.Result, error)
}

// everyBuilder requeues a pass that succeeded after a fixed interval.
type everyBuilder struct {
	every time.Duration // want "ArchiveReconciler/trace:controller-field"
}

func (b everyBuilder) build(err error) (ctrl.Result, error) {
	if err != nil {
		return ctrl.Result{}, err // want "ArchiveReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: b.every}, nil // want "ArchiveReconciler/requeue-success" "ArchiveReconciler/trace:return"
}

// finish hands the outcome of a pass to the builder.
func finish(b resultBuilder, err error) (ctrl.Result, error) {
	return b.build(err)
}

// ArchiveReconciler marks Secrets as archived; a result builder, run by a
// helper in a deferred closure, decides its result.
type ArchiveReconciler struct {
	client.Client
}

// Reconcile archives one Secret.
func (r *ArchiveReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "ArchiveReconciler/reconcile-entry"
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil { // want "ArchiveReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	b := everyBuilder{every: archiveInterval} // want "ArchiveReconciler/trace:set"
	defer func() {
		result, retErr = finish(b, retErr)
	}()
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	secret.Labels["archive.valueflow.example.com/archived"] = "true"
	return ctrl.Result{}, r.Update(ctx, secret) // want "ArchiveReconciler/write-always"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *ArchiveReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
