package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ExposeReconciler/finalizer-const" "ExposeReconciler/finalizer-add" "ExposeReconciler/finalizer-cleanup" "ExposeReconciler/finalizer-remove" "ExposeReconciler/condition-types" "ExposeReconciler/requeue-success" "ExposeReconciler/interval-trace" "ExposeReconciler/drift"

// optOutAnnotation on a Service stops its audit record.
const optOutAnnotation = "example.com/no-audit"

// ExposeReconciler patches an audit ConfigMap for each Service with ports
// that has not opted out, on every pass: whether an unchanged Service's
// pass writes depends on its annotations and ports, which the code does
// not settle.
type ExposeReconciler struct {
	client.Client
}

// Reconcile audits the Service unless it opted out.
func (r *ExposeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ExposeReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "ExposeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if svc.GetAnnotations()[optOutAnnotation] == "true" {
		return ctrl.Result{}, nil
	}
	if err := r.audit(ctx, &svc); err != nil {
		return ctrl.Result{}, err // want "ExposeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// audit patches the Service's audit record when it has ports.
func (r *ExposeReconciler) audit(ctx context.Context, svc *corev1.Service) error {
	if len(svc.Spec.Ports) == 0 {
		return nil
	}
	record := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name + "-audit"}}
	if err := r.Patch(ctx, record, client.Merge); err != nil {
		return err
	}
	return nil
}

// SetupWithManager registers the auditor for Services.
func (r *ExposeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("expose").Complete(r)
}
