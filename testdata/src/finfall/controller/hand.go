package controller

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// serviceFinalizer holds a Service until its Endpoints are gone.
const serviceFinalizer = "finfall.example.com/endpoints" // want "ServiceReconciler/finalizer-const"

// ServiceReconciler removes its finalizer in a closure, after a cleanup
// that is not handed the Service, and adds it through a list a closure
// builds.
type ServiceReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or on deletion deletes the Endpoints and
// removes it.
func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ServiceReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "ServiceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !svc.DeletionTimestamp.IsZero() {
		if err := r.dropEndpoints(ctx, svc.Namespace, svc.Name); err != nil {
			return ctrl.Result{}, err
		}
		// decoy: finalizer-cleanup (only the finalizer's removal)
		func() { controllerutil.RemoveFinalizer(svc, serviceFinalizer) }() // want "ServiceReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, svc)
	}
	if !slices.Contains(svc.Finalizers, serviceFinalizer) {
		svc.Finalizers = func() []string { return append(svc.Finalizers, serviceFinalizer) }() // want "ServiceReconciler/finalizer-add"
		if err := r.Update(ctx, svc); err != nil {
			return ctrl.Result{}, err // want "ServiceReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// dropEndpoints deletes the Endpoints of that name.
func (r *ServiceReconciler) dropEndpoints(ctx context.Context, namespace, name string) error { // want "ServiceReconciler/finalizer-cleanup"
	ep := &corev1.Endpoints{}
	ep.Name, ep.Namespace = name, namespace
	return client.IgnoreNotFound(r.Delete(ctx, ep))
}

// SetupWithManager registers the reconciler for Services.
func (r *ServiceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}
