// Package controller holds a reconciler that skips the objects of one
// namespace, by a test of the object's own namespace, and announces every
// other object it sees.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "AnnounceReconciler/finalizer-const" "AnnounceReconciler/finalizer-add" "AnnounceReconciler/finalizer-cleanup" "AnnounceReconciler/finalizer-remove" "AnnounceReconciler/condition-types" "AnnounceReconciler/requeue-success" "AnnounceReconciler/interval-trace" "AnnounceReconciler/drift"

// AnnounceReconciler records an event on each ConfigMap outside the
// system namespace.
type AnnounceReconciler struct {
	client.Client
	Recorder        record.EventRecorder
	SystemNamespace string
}

// Reconcile announces the ConfigMap. The namespace test names which
// objects are skipped; it says nothing of whether an object it lets
// through has changed, so the event is recorded on every pass of one.
func (r *AnnounceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AnnounceReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "AnnounceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "AnnounceReconciler/requeue-error"
	}
	if cm.Namespace == r.SystemNamespace || cm.GetName() == r.SystemNamespace {
		log.FromContext(ctx).Info("skipping a system object")
		return ctrl.Result{}, nil
	}
	r.Recorder.Event(&cm, corev1.EventTypeNormal, "Seen", "the ConfigMap was reconciled") // want "AnnounceReconciler/write-always"
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *AnnounceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
