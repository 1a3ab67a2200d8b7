package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
	"sigs.k8s.io/controller-runtime/pkg/source"
)

// want-none "AuditReconciler/finalizer-const" "AuditReconciler/finalizer-add" "AuditReconciler/finalizer-cleanup" "AuditReconciler/finalizer-remove" "AuditReconciler/condition-types" "AuditReconciler/requeue-success" "AuditReconciler/interval-trace" "AuditReconciler/drift"

// AuditReconciler deletes the audit Secret of every ConfigMap labelled for
// audit, on each pass: whether an unchanged ConfigMap's pass deletes it
// depends on its label, which the code does not settle. It is wired with
// a watch, not the builder: its kind is the one it reads by the key.
type AuditReconciler struct {
	Reader client.Reader
	Writer client.Writer
}

// Reconcile deletes the ConfigMap's audit Secret when it asks for audit.
func (r *AuditReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "AuditReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Reader.Get(ctx, req.NamespacedName, &cm); err != nil { // want "AuditReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels["audit"] == "on" {
		audit := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-audit"}}
		return reconcile.Result{}, client.IgnoreNotFound(r.Writer.Delete(ctx, audit)) // want "AuditReconciler/requeue-error" "AuditReconciler/write-unsettled"
	}
	return reconcile.Result{}, nil
}

// AddAudit registers the reconciler with the manager and watches
// ConfigMaps.
func AddAudit(mgr manager.Manager) error {
	c, err := controller.New("audit", mgr, controller.Options{
		Reconciler: &AuditReconciler{Reader: mgr.GetAPIReader(), Writer: mgr.GetClient()},
	})
	if err != nil {
		return err
	}
	return c.Watch(source.Kind(mgr.GetCache(), &corev1.ConfigMap{}, &handler.TypedEnqueueRequestForObject[*corev1.ConfigMap]{}))
}
