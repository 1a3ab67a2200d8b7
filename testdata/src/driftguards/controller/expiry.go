package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ExpiryReconciler/finalizer-const" "ExpiryReconciler/finalizer-add" "ExpiryReconciler/finalizer-cleanup" "ExpiryReconciler/finalizer-remove" "ExpiryReconciler/condition-types" "ExpiryReconciler/requeue-success" "ExpiryReconciler/interval-trace" "ExpiryReconciler/drift"

// ttlAnnotation holds how long a ConfigMap lives; keepAnnotation set to
// "true" keeps it past that; hashLabel is the hash of the configuration
// the ConfigMap was made under.
const (
	ttlAnnotation  = "driftguards.example.com/ttl"
	keepAnnotation = "driftguards.example.com/keep"
	hashLabel      = "driftguards.example.com/config-hash"
)

// ExpiryReconciler deletes a ConfigMap whose time to live has passed, or
// that was made under another configuration than the current one. The
// test before the deletion compares the live object with the current
// configuration, but deleting the object the pass re-read ends its life:
// no desired state is applied, and the drift answer is none.
type ExpiryReconciler struct {
	client.Client
	// ConfigHash is the hash of the configuration now in force.
	ConfigHash string
}

// Reconcile deletes the ConfigMap once it has expired.
func (r *ExpiryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ExpiryReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ExpiryReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if expired(&cm, time.Now()) || r.stale(&cm) {
		return ctrl.Result{}, client.IgnoreNotFound(r.Delete(ctx, &cm)) // want "ExpiryReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// expired reports whether an object's time to live has passed, unless it
// is kept.
func expired(obj client.Object, now time.Time) bool {
	if obj.GetAnnotations()[keepAnnotation] == "true" {
		return false
	}
	ttl, err := time.ParseDuration(obj.GetAnnotations()[ttlAnnotation])
	return err == nil && obj.GetCreationTimestamp().Add(ttl).Before(now)
}

// stale reports whether an object was made under another configuration.
func (r *ExpiryReconciler) stale(obj client.Object) bool {
	return obj.GetLabels()[hashLabel] != r.ConfigHash
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ExpiryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("expiry").For(&corev1.ConfigMap{}).Complete(r)
}
