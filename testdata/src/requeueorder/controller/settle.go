package controller

import (
	"context"
	"time"

	storagev1 "k8s.io/api/storage/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SettleReconciler/finalizer-const" "SettleReconciler/finalizer-add" "SettleReconciler/finalizer-cleanup" "SettleReconciler/finalizer-remove" "SettleReconciler/condition-types"
// want-none "SettleReconciler/requeue-success" "SettleReconciler/interval-trace" "SettleReconciler/requeue-error"

// settledLabel marks an attachment the reconciler has seen attached.
const settledLabel = "example.com/settled"

// SettleReconciler labels a VolumeAttachment once it is attached, and
// looks again every ten seconds at one that is not: whether that wait is
// the steady state's interval or a wait while the volume is detached, the
// attachment's status decides, not the code. The final return, which does not
// requeue where its error is nil, is the other branch.
type SettleReconciler struct {
	client.Client
}

// Reconcile waits for the volume to be attached, then labels the
// attachment.
func (r *SettleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SettleReconciler/reconcile-entry"
	var va storagev1.VolumeAttachment
	if err := r.Get(ctx, req.NamespacedName, &va); err != nil { // want "SettleReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !va.Status.Attached {
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil // not settled: the steady state or a wait, as the status decides
	}
	err := r.label(ctx, &va)
	return ctrl.Result{}, err // the main work's failure, or the Get's before the wait: not settled
}

// label marks the attachment settled.
func (r *SettleReconciler) label(ctx context.Context, va *storagev1.VolumeAttachment) error {
	patch := client.MergeFrom(va.DeepCopy())
	if va.Labels == nil {
		va.Labels = map[string]string{}
	}
	va.Labels[settledLabel] = "true"
	return r.Patch(ctx, va, patch)
}
