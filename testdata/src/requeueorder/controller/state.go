package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// StateReconciler moves a PersistentVolume out of Pending into Available,
// waiting a minute after the move, and looks at an Available one every
// hour. The Pending branch stores another phase before its wait: an
// unchanged object is not in it, so the hourly wait is the steady state.
type StateReconciler struct {
	client.Client
}

// Reconcile dispatches on the PersistentVolume's phase.
func (r *StateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StateReconciler/reconcile-entry"
	var pv corev1.PersistentVolume
	if err := r.Get(ctx, req.NamespacedName, &pv); err != nil { // want "StateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch pv.Status.Phase {
	case corev1.VolumePending:
		pv.Status.Phase = corev1.VolumeAvailable
		if err := r.Status().Update(ctx, &pv); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: time.Minute}, nil // decoy: StateReconciler/requeue-success (the way out of Pending)
	case corev1.VolumeAvailable:
		if len(pv.Spec.Capacity) == 0 {
			return ctrl.Result{}, fmt.Errorf("persistent volume %s has no capacity", pv.Name) // want "StateReconciler/requeue-error"
		}
		return ctrl.Result{RequeueAfter: time.Hour}, nil // want "StateReconciler/requeue-success" "StateReconciler/trace:return"
	}
	return ctrl.Result{}, nil
}
