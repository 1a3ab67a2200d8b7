package controller

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "SweepReconciler/condition-types" "SweepReconciler/requeue-success" "SweepReconciler/interval-trace" "SweepReconciler/drift"

// sweepFinalizer holds a claim until the Jobs labelled with its name are
// gone.
const sweepFinalizer = "finwork.example.com/sweep" // want "SweepReconciler/finalizer-const"

// sweepTimeout is how long a deleted claim waits for its Jobs before the
// finalizer is forced off.
const sweepTimeout = 10 * time.Minute

// SweepReconciler deletes a claim's Jobs by their labels when the claim is
// deleted, then drops the finalizer; past a timeout a helper handed the
// claim forces the finalizer off with an event: the removal, not the work.
type SweepReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile adds the finalizer, or sweeps the Jobs of a deleted claim.
func (r *SweepReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SweepReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "SweepReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pvc.DeletionTimestamp.IsZero() {
		if err := r.deleteJobs(ctx, pvc.Namespace, pvc.Name); err != nil {
			return ctrl.Result{}, err
		}
		if time.Since(pvc.DeletionTimestamp.Time) > sweepTimeout {
			return r.forceRelease(ctx, &pvc)
		}
		controllerutil.RemoveFinalizer(&pvc, sweepFinalizer) // want "SweepReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &pvc)
	}
	if controllerutil.AddFinalizer(&pvc, sweepFinalizer) { // want "SweepReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &pvc) // want "SweepReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// deleteJobs deletes every Job labelled with the claim's name.
func (r *SweepReconciler) deleteJobs(ctx context.Context, namespace, claim string) error { // want "SweepReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &batchv1.Job{}, client.InNamespace(namespace), client.MatchingLabels{"sweep": claim})
}

// forceRelease drops the finalizer of a claim whose Jobs did not go in
// time, and says so.
func (r *SweepReconciler) forceRelease(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (ctrl.Result, error) {
	controllerutil.RemoveFinalizer(pvc, sweepFinalizer)
	if err := r.Update(ctx, pvc); err != nil {
		return ctrl.Result{}, err
	}
	r.Recorder.Eventf(pvc, corev1.EventTypeWarning, "ForcedRelease", "finalizer removed after %v", sweepTimeout)
	return ctrl.Result{}, nil
}

// SetupSweep registers the reconciler for claims.
func SetupSweep(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Complete(&SweepReconciler{Client: mgr.GetClient(), Recorder: mgr.GetEventRecorderFor("sweep")})
}
