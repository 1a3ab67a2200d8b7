package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// endpointsResync is how often an Endpoints object is looked at again.
const endpointsResync = 20 * time.Minute // want "LambdaReconciler/trace:constant"

// LambdaReconciler annotates Endpoints.
type LambdaReconciler struct {
	client.Client
}

// Reconcile runs the inner pass, then builds its own result field by field,
// storing the inner pass's interval into it, and hands it back with the
// write's error: the success requeue is the inner pass's return, which
// makes the interval with a nil error; the store copies it on.
func (r *LambdaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LambdaReconciler/reconcile-entry"
	var ep corev1.Endpoints
	if err := r.Get(ctx, req.NamespacedName, &ep); err != nil { // want "LambdaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "LambdaReconciler/requeue-error"
	}
	inner, err := r.inner(&ep)
	if err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (inner never fails: this never runs)
	}
	result := ctrl.Result{}
	result.RequeueAfter = inner.RequeueAfter
	return result, r.Update(ctx, &ep) // want "LambdaReconciler/write-always"
}

// inner annotates the Endpoints and says when to look again.
func (r *LambdaReconciler) inner(ep *corev1.Endpoints) (ctrl.Result, error) {
	if ep.Annotations == nil {
		ep.Annotations = map[string]string{}
	}
	ep.Annotations["seen"] = "true"
	return ctrl.Result{RequeueAfter: endpointsResync}, nil // want "LambdaReconciler/requeue-success" "LambdaReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Endpoints.
func (r *LambdaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Endpoints{}).Complete(r)
}
