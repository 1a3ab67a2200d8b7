package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PublishReconciler/finalizer-const" "PublishReconciler/finalizer-add" "PublishReconciler/finalizer-cleanup" "PublishReconciler/finalizer-remove" "PublishReconciler/condition-types" "PublishReconciler/drift"
// want-none "PublishReconciler/requeue-success" "PublishReconciler/interval-trace"

// PublishReconciler hands each Service to a gateway and asks for the key
// again at once, rate-limited, until the gateway says it is configured:
// a requeue a pass makes while what it tests lasts, with no interval and
// no failure. There is no timed requeue: the requeue on success is none,
// its reason naming the immediate one (as readers keying real trees by
// hand answer it, seven times in eight).
type PublishReconciler struct {
	client.Client
	Gateway Gateway
}

// Gateway is what the reconciler publishes Services to.
type Gateway interface {
	Publish(svc *corev1.Service) error
	Configured(svc *corev1.Service) bool
}

// Reconcile publishes one Service.
func (r *PublishReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PublishReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "PublishReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.Gateway.Publish(&svc); err != nil {
		return ctrl.Result{}, err // want "PublishReconciler/requeue-error"
	}
	if !r.Gateway.Configured(&svc) {
		return ctrl.Result{Requeue: true}, nil // named by requeue-success's none
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Services.
func (r *PublishReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}
