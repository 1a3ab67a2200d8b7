package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PortsReconciler/finalizer-const" "PortsReconciler/finalizer-add" "PortsReconciler/finalizer-cleanup" "PortsReconciler/finalizer-remove" "PortsReconciler/condition-types" "PortsReconciler/requeue-success" "PortsReconciler/interval-trace" "PortsReconciler/drift"

// PortsReconciler stamps a ConfigMap for each port of a Service, on every
// pass: whether a pass writes depends on whether the Service has a port,
// which the code does not settle.
type PortsReconciler struct {
	client.Client
}

// Reconcile stamps one ConfigMap per port.
func (r *PortsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PortsReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "PortsReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, p := range svc.Spec.Ports {
		stamp := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name + "-" + strconv.Itoa(int(p.Port))}}
		if err := r.Patch(ctx, stamp, client.Merge); err != nil {
			return ctrl.Result{}, err // want "PortsReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the stamper for Services.
func (r *PortsReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("ports").Complete(r)
}
