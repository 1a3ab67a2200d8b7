package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PublishReconciler/finalizer-const" "PublishReconciler/finalizer-add" "PublishReconciler/finalizer-cleanup" "PublishReconciler/finalizer-remove" "PublishReconciler/condition-types" "PublishReconciler/requeue-success" "PublishReconciler/interval-trace" "PublishReconciler/drift"

// retryAfter is how long a failed publication waits before it is tried
// again.
const retryAfter = 30 * time.Second

// PublishReconciler copies each ConfigMap into a Secret. Its work returns
// a Result alone: a failure is logged and retried after a while, with no
// error, and a success is not requeued. The requeue it hands back is the
// retry after a failure, never a success interval.
type PublishReconciler struct {
	client.Client
}

// Reconcile publishes the ConfigMap.
func (r *PublishReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PublishReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "PublishReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return r.publish(ctx, &cm), nil
}

// publish writes the Secret, and asks to be tried again when that fails.
func (r *PublishReconciler) publish(ctx context.Context, cm *corev1.ConfigMap) ctrl.Result {
	secret := &corev1.Secret{}
	secret.Namespace, secret.Name = cm.Namespace, cm.Name
	secret.StringData = cm.Data
	if err := r.Create(ctx, secret); client.IgnoreAlreadyExists(err) != nil { // want "PublishReconciler/write-always"
		ctrl.LoggerFrom(ctx).Error(err, "publish")
		return ctrl.Result{RequeueAfter: retryAfter} // want "PublishReconciler/requeue-error"
	}
	return ctrl.Result{}
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *PublishReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("publish").For(&corev1.ConfigMap{}).Complete(r)
}
