// Package controller holds a reconciler that keeps no finalizer but runs a
// cleanup on the branch taken when its object is being deleted.
package controller

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "RegistryReconciler/finalizer-const" "RegistryReconciler/finalizer-add" "RegistryReconciler/finalizer-remove"
// want-none "RegistryReconciler/condition-types" "RegistryReconciler/requeue-success" "RegistryReconciler/interval-trace" "RegistryReconciler/drift"

// RegistryReconciler keeps an in-memory registry of Services and their
// endpoints; it holds no finalizer, so a deleted Service may be gone
// before its entry is dropped.
type RegistryReconciler struct {
	client.Client
	entries sync.Map
}

// Reconcile records one Service, or drops it when it is being deleted.
func (r *RegistryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RegistryReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "RegistryReconciler/reread"
		r.entries.Delete(req.NamespacedName)
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var ep corev1.Endpoints
	if err := r.Get(ctx, req.NamespacedName, &ep); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err // want "RegistryReconciler/requeue-error"
	}
	if ep.DeletionTimestamp != nil {
		r.noteEndpointsGoing(ctx, &ep) // decoy: a child's deletion, not the Service's
	}
	if !svc.DeletionTimestamp.IsZero() {
		trace(log.FromContext(ctx), &svc, "service is being deleted, dropping its entry") // decoy: a log line through a helper
		r.forget(&svc)
		return ctrl.Result{}, nil
	}
	r.entries.Store(req.NamespacedName, len(ep.Subsets))
	return ctrl.Result{}, nil
}

// noteEndpointsGoing logs that a Service's endpoints are being deleted.
func (r *RegistryReconciler) noteEndpointsGoing(ctx context.Context, ep *corev1.Endpoints) {
	log.FromContext(ctx).Info("endpoints going", "name", ep.Name)
}

// forget drops a Service's registry entry.
func (r *RegistryReconciler) forget(svc *corev1.Service) { // want "RegistryReconciler/finalizer-cleanup"
	r.entries.Delete(client.ObjectKeyFromObject(svc))
}

// SetupWithManager registers the reconciler for Services.
func (r *RegistryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("registry").Complete(r)
}
