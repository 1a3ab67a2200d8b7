package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "PartsReconciler/condition-types" "PartsReconciler/requeue-success" "PartsReconciler/interval-trace" "PartsReconciler/drift"

const partsFinalizer = "saves.example.com/parts" // want "PartsReconciler/finalizer-const"

// Part is one piece of what a Service is cleaned up of.
type Part interface {
	Delete(ctx context.Context, svc *corev1.Service) error
}

// endpointsPart deletes the Service's Endpoints.
type endpointsPart struct{ c client.Client }

// Delete deletes the Endpoints named as the Service.
func (p endpointsPart) Delete(ctx context.Context, svc *corev1.Service) error {
	ep := &corev1.Endpoints{}
	ep.Name, ep.Namespace = svc.Name, svc.Namespace
	return client.IgnoreNotFound(p.c.Delete(ctx, ep))
}

// finalizerPart lets the Service go.
type finalizerPart struct{ c client.Client }

// Delete drops the finalizer and saves the Service.
func (p finalizerPart) Delete(ctx context.Context, svc *corev1.Service) error {
	controllerutil.RemoveFinalizer(svc, partsFinalizer) // want "PartsReconciler/finalizer-remove"
	return p.c.Update(ctx, svc)
}

// runDelete runs one part's deletion.
func runDelete(ctx context.Context, p Part, svc *corev1.Service) error {
	return p.Delete(ctx, svc)
}

// PartsReconciler cleans a deleted Service up part by part, through a
// runner that only calls each part's Delete: which part is the cleanup is
// not settled.
type PartsReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for Services.
func (r *PartsReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}

// Reconcile adds the finalizer, or runs the parts' deletions.
func (r *PartsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PartsReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "PartsReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !svc.DeletionTimestamp.IsZero() {
		// want-none "PartsReconciler/finalizer-cleanup"
		for _, p := range []Part{endpointsPart{r.Client}, finalizerPart{r.Client}} {
			if err := runDelete(ctx, p, svc); err != nil {
				return ctrl.Result{}, err
			}
		}
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(svc, partsFinalizer) { // want "PartsReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, svc) // want "PartsReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}
