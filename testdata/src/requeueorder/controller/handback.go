package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// restamp is how often a stamped Service is stamped again.
const restamp = 20 * time.Minute // want "HandBackReconciler/trace:constant"

// HandBackReconciler stamps Services. A load balancer is stamped at once,
// a special case handing back stamp's result first; an external name is
// looked at again soon; any other is stamped as the pass's last step,
// through stamp again. stamp's success return ends the pass as late as
// the last return that hands it back: it is the steady state, not the
// held case between the two.
type HandBackReconciler struct {
	client.Client
}

// Reconcile reads the Service and stamps it unless it is held.
func (r *HandBackReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HandBackReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "HandBackReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Spec.Type == corev1.ServiceTypeLoadBalancer {
		return r.stamp(ctx, svc)
	}
	if svc.Spec.Type == corev1.ServiceTypeExternalName {
		return ctrl.Result{RequeueAfter: pausedPoll}, nil // decoy: requeue-success (a special case between the two hand-backs)
	}
	return r.stamp(ctx, svc)
}

// stamp stamps the Service and looks again after restamp.
func (r *HandBackReconciler) stamp(ctx context.Context, svc *corev1.Service) (ctrl.Result, error) {
	if svc.Annotations == nil {
		svc.Annotations = map[string]string{}
	}
	svc.Annotations["stamped"] = "true"
	if err := r.Update(ctx, svc); err != nil {
		return ctrl.Result{}, err // want "HandBackReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: restamp}, nil // want "HandBackReconciler/requeue-success" "HandBackReconciler/trace:return"
}
