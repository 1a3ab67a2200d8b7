package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// podTemplateResync is how often a PodTemplate is looked at again.
const podTemplateResync = 15 * time.Minute // want "CopyReconciler/trace:constant"

// CopyReconciler builds its result in one variable, storing into it the
// interval an inner pass made, and hands back a copy of that variable: the
// copy holds what the stores before it put in, so the success requeue is
// the inner pass's return.
type CopyReconciler struct {
	client.Client
}

// Reconcile labels the PodTemplate and looks again when the inner pass
// says.
func (r *CopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CopyReconciler/reconcile-entry"
	var pt corev1.PodTemplate
	if err := r.Get(ctx, req.NamespacedName, &pt); err != nil { // want "CopyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "CopyReconciler/requeue-error"
	}
	inner := r.label(&pt)
	result := ctrl.Result{}
	result.RequeueAfter = inner.RequeueAfter
	out := result
	return out, r.Update(ctx, &pt) // want "CopyReconciler/write-always"
}

// label marks the PodTemplate seen and says when to look again.
func (r *CopyReconciler) label(pt *corev1.PodTemplate) ctrl.Result {
	if pt.Labels == nil {
		pt.Labels = map[string]string{}
	}
	pt.Labels["seen"] = "true"
	return ctrl.Result{RequeueAfter: podTemplateResync} // want "CopyReconciler/requeue-success" "CopyReconciler/trace:return"
}

// SetupWithManager registers the reconciler for PodTemplates.
func (r *CopyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PodTemplate{}).Complete(r)
}
