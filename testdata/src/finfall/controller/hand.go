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

// ServiceReconciler hands its deletion branch to a helper, removes the
// finalizer in a closure there, and adds it through a list built by a
// closure and a helper returning a tuple.
type ServiceReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or on deletion hands the work on.
func (r *ServiceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ServiceReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "ServiceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !svc.DeletionTimestamp.IsZero() {
		return r.onDelete(ctx, svc)
	}
	if !slices.Contains(svc.Finalizers, serviceFinalizer) {
		svc.Finalizers = func() []string { return append(svc.Finalizers, serviceFinalizer) }() // want "ServiceReconciler/finalizer-add"
		if err := r.Update(ctx, svc); err != nil {
			return ctrl.Result{}, err // want "ServiceReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// onDelete runs the Service's cleanup, then lets it go.
func (r *ServiceReconciler) onDelete(ctx context.Context, svc *corev1.Service) (ctrl.Result, error) {
	if err := r.dropEndpoints(ctx, svc); err != nil {
		return ctrl.Result{}, err
	}
	// decoy: finalizer-cleanup (only the finalizer's removal)
	func() { controllerutil.RemoveFinalizer(svc, serviceFinalizer) }() // want "ServiceReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, svc)
}

// dropEndpoints deletes the Endpoints of the Service's name.
func (r *ServiceReconciler) dropEndpoints(ctx context.Context, svc *corev1.Service) error { // want "ServiceReconciler/finalizer-cleanup"
	ep := &corev1.Endpoints{}
	ep.Name, ep.Namespace = svc.Name, svc.Namespace
	return client.IgnoreNotFound(r.Delete(ctx, ep))
}

// SetupWithManager registers the reconciler for Services.
func (r *ServiceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}
