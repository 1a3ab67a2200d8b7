package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "VolumeChecker/finalizer-const" "VolumeChecker/finalizer-add" "VolumeChecker/finalizer-cleanup" "VolumeChecker/finalizer-remove" "VolumeChecker/condition-types" "VolumeChecker/drift"

// VolumeChecker looks at each PersistentVolume every minute, unless the
// volume failed its check: it marks a volume Failed only when the check
// fails, so a valid volume never rests there, and the interval is the
// steady state.
type VolumeChecker struct {
	client.Client
}

// Reconcile checks a PersistentVolume.
func (r *VolumeChecker) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "VolumeChecker/reconcile-entry"
	var pv corev1.PersistentVolume
	if err := r.Get(ctx, req.NamespacedName, &pv); err != nil { // want "VolumeChecker/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := checkVolume(&pv); err != nil {
		pv.Status.Phase = corev1.VolumeFailed
		pv.Status.Message = err.Error()
		return ctrl.Result{}, r.Status().Update(ctx, &pv) // want "VolumeChecker/requeue-error"
	}
	switch pv.Status.Phase {
	case corev1.VolumeFailed:
		return ctrl.Result{}, nil
	default:
		return ctrl.Result{RequeueAfter: time.Minute}, nil // want "VolumeChecker/requeue-success" "VolumeChecker/trace:return" "VolumeChecker/trace:constant"
	}
}

// checkVolume fails for a volume with no capacity.
func checkVolume(pv *corev1.PersistentVolume) error {
	if len(pv.Spec.Capacity) == 0 {
		return errors.New("no capacity")
	}
	return nil
}

// SetupVolumeChecker registers the reconciler.
func SetupVolumeChecker(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("volumecheck").For(&corev1.PersistentVolume{}).Complete(&VolumeChecker{Client: mgr.GetClient()})
}
