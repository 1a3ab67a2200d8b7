// Package controller holds the Tenant reconciler.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	tenantv1 "example.com/fixtures/finshortcut/api/v1"
)

// want-none "condition-types" "requeue-success" "drift" "interval-trace"

// TenantReconciler deletes a Tenant's namespaces before the Tenant goes.
type TenantReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler with the manager.
func (r *TenantReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tenantv1.Tenant{}).Complete(r)
}

// Reconcile keeps the finalizer on a Tenant, and runs its teardown when it
// is deleted.
func (r *TenantReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	tenant := &tenantv1.Tenant{}
	if err := r.Get(ctx, req.NamespacedName, tenant); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !tenant.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.teardown(ctx, tenant)
	}
	if controllerutil.AddFinalizer(tenant, tenantv1.Finalizer) { // want "finalizer-add"
		return ctrl.Result{}, r.Update(ctx, tenant) // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// teardown deletes the Tenant's namespaces, then lets the Tenant go; one
// without namespaces goes at once.
func (r *TenantReconciler) teardown(ctx context.Context, tenant *tenantv1.Tenant) error { // want "finalizer-cleanup"
	if len(tenant.Spec.Namespaces) == 0 {
		controllerutil.RemoveFinalizer(tenant, tenantv1.Finalizer)
		return r.Update(ctx, tenant)
	}
	for _, name := range tenant.Spec.Namespaces {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if err := r.Delete(ctx, ns); client.IgnoreNotFound(err) != nil {
			return err
		}
	}
	controllerutil.RemoveFinalizer(tenant, tenantv1.Finalizer) // want "finalizer-remove"
	return r.Update(ctx, tenant)
}
