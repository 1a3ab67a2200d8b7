package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ExpiryReconciler/finalizer-const" "ExpiryReconciler/finalizer-add" "ExpiryReconciler/finalizer-cleanup" "ExpiryReconciler/finalizer-remove" "ExpiryReconciler/condition-types" "ExpiryReconciler/drift"

// ttlAnnotation, on a ConfigMap, is how long it may live; hashLabel the
// hash of the settings it was made with.
const (
	ttlAnnotation = "example.com/ttl"
	hashLabel     = "example.com/settings-hash"
)

// ExpiryReconciler deletes each ConfigMap whose time to live has passed,
// or that was made with other settings than the current ones: the test
// guards the deletion of the object read itself, its end of life, not a
// difference applied to another object.
type ExpiryReconciler struct {
	client.Client
	settingsHash string
}

// Reconcile deletes the ConfigMap once it has expired.
func (r *ExpiryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ExpiryReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ExpiryReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if r.expired(ctx, &cm, cm.Annotations[ttlAnnotation]) || cm.Labels[hashLabel] != r.settingsHash {
		return ctrl.Result{}, client.IgnoreNotFound(r.Delete(ctx, &cm)) // want "ExpiryReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: time.Minute}, nil // want "ExpiryReconciler/requeue-success" "ExpiryReconciler/trace:return" "ExpiryReconciler/trace:constant"
}

// expired reports whether the ConfigMap has outlived the time to live
// given.
func (r *ExpiryReconciler) expired(_ context.Context, cm *corev1.ConfigMap, ttl string) bool {
	d, err := time.ParseDuration(ttl)
	return err == nil && time.Since(cm.CreationTimestamp.Time) > d
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ExpiryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("expiry").For(&corev1.ConfigMap{}).Complete(r)
}
