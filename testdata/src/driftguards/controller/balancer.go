package controller

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "BalancerReconciler/finalizer-const" "BalancerReconciler/finalizer-add" "BalancerReconciler/finalizer-cleanup" "BalancerReconciler/finalizer-remove" "BalancerReconciler/condition-types" "BalancerReconciler/requeue-success" "BalancerReconciler/interval-trace"

// BalancerReconciler gives each LoadBalancer Service the address its pool
// assigns. A Service is not a kind of the tree's: its status is the state
// this controller applies, so the comparison of the assigned ingress with
// the live status guards a write that corrects drift.
type BalancerReconciler struct {
	client.Client
	pool map[string]string
}

// Reconcile writes the Service's load balancer status when it differs.
func (r *BalancerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "BalancerReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "BalancerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return ctrl.Result{}, nil
	}
	desired := corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: r.pool[req.Name]}}}
	if !reflect.DeepEqual(svc.Status.LoadBalancer, desired) { // want "BalancerReconciler/drift:compare"
		svc.Status.LoadBalancer = desired
		if err := r.Status().Update(ctx, &svc); err != nil { // want "BalancerReconciler/drift:apply"
			return ctrl.Result{}, err // want "BalancerReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Services.
func (r *BalancerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("balancer").For(&corev1.Service{}).Complete(r)
}
