package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// recheck is how often a checked claim is checked again.
const recheck = 15 * time.Minute // want "CopyReconciler/trace:constant"

// CopyReconciler checks PersistentVolumeClaims. The entry copies the
// check's interval field by field into the result it returns with its own
// status write's error: the interval is made, and the success requeue
// stands, at the check's return, which the entry's return hands on.
type CopyReconciler struct {
	client.Client
}

// Reconcile checks the claim and writes its status.
func (r *CopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CopyReconciler/reconcile-entry"
	pvc := &corev1.PersistentVolumeClaim{}
	if err := r.Get(ctx, req.NamespacedName, pvc); err != nil { // want "CopyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	result, err := r.check(ctx, pvc)
	if err != nil {
		return result, err
	}
	return ctrl.Result{RequeueAfter: result.RequeueAfter}, r.Status().Update(ctx, pvc) // want "CopyReconciler/write-always"
}

// check marks the claim checked and looks again after recheck.
func (r *CopyReconciler) check(ctx context.Context, pvc *corev1.PersistentVolumeClaim) (ctrl.Result, error) {
	if pvc.Labels == nil {
		pvc.Labels = map[string]string{}
	}
	pvc.Labels["checked"] = "true"
	if err := r.Update(ctx, pvc); err != nil { // want "CopyReconciler/write-always"
		return ctrl.Result{}, err // want "CopyReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: recheck}, nil // want "CopyReconciler/requeue-success" "CopyReconciler/trace:return"
}
