// Package controller holds a reconciler whose pass runs in a helper that
// first tests, with a generic predicate of its own, whether the object is
// being deleted: what that branch records and writes is the deletion's,
// never the steady pass's.
package controller

import (
	"context"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// moduleFinalizer holds a ConfigMap until its module is released.
const moduleFinalizer = "deletepredicate.example.com/module" // want "finalizer-const"

// ModuleReconciler publishes a ConfigMap's module and releases it on
// deletion.
type ModuleReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile adds the finalizer and hands the pass to reconcileModule.
func (r *ModuleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !controllerutil.ContainsFinalizer(&cm, moduleFinalizer) {
		controllerutil.AddFinalizer(&cm, moduleFinalizer) // want "finalizer-add"
		if err := r.Update(ctx, &cm); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.reconcileModule(ctx, &cm); err != nil {
		r.Recorder.Event(&cm, corev1.EventTypeWarning, "ReconcileModule", "failed")
		return ctrl.Result{RequeueAfter: time.Minute}, nil // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// reconcileModule releases a module being deleted, or publishes it from a
// scratch directory it removes when it returns (a function that defers
// returns through its results' slots).
func (r *ModuleReconciler) reconcileModule(ctx context.Context, cm *corev1.ConfigMap) error {
	if isDeletionCandidate(cm, moduleFinalizer) {
		r.Recorder.Event(cm, corev1.EventTypeNormal, "ReconcileModule", "marked as deleted") // decoy: write-always (the deletion's)
		return r.releaseModule(ctx, cm)
	}
	dir, err := scratchDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	r.Recorder.Event(cm, corev1.EventTypeNormal, "ReconcileModule", "published") // want "write-always"
	return r.updateStatus(ctx, cm)
}

// updateStatus writes the ConfigMap back.
func (r *ModuleReconciler) updateStatus(ctx context.Context, cm *corev1.ConfigMap) error {
	return r.Update(ctx, cm) // want "write-always"
}

// releaseModule drops the finalizer.
func (r *ModuleReconciler) releaseModule(ctx context.Context, cm *corev1.ConfigMap) error { // want "finalizer-cleanup"
	controllerutil.RemoveFinalizer(cm, moduleFinalizer) // want "finalizer-remove"
	return r.Update(ctx, cm)
}

// scratchDir makes a directory to publish from.
func scratchDir() (string, error) {
	return os.MkdirTemp("", "module")
}

// isDeletionCandidate reports whether o is being deleted and still holds
// the finalizer.
func isDeletionCandidate[T client.Object](o T, finalizer string) bool {
	return !o.GetDeletionTimestamp().IsZero() && controllerutil.ContainsFinalizer(o, finalizer)
}

// SetupModule registers the reconciler for ConfigMaps.
func SetupModule(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&ModuleReconciler{Client: mgr.GetClient(), Recorder: mgr.GetEventRecorderFor("module")})
}
