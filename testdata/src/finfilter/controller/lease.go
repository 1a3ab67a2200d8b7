package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// leaseFinalizer holds a ConfigMap until the lease Secret it names is
// released.
const leaseFinalizer = "finfilter.example.com/lease" // want "finalizer-const"

// LeaseReconciler keeps its finalizer with two helpers of its own: one
// appends it to the list, the other assigns the list a filtering helper
// returns, the object's own list read through GetFinalizers without it.
// The filter's body appends the elements it keeps, which are the
// object's own (the finalizer itself among them, once added): that is a
// removal, not an add.
type LeaseReconciler struct {
	client.Client
}

// Reconcile releases the lease of a ConfigMap being deleted, else makes
// sure the finalizer is there.
func (r *LeaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.GetDeletionTimestamp() != nil {
		if !holds(cm.GetFinalizers(), leaseFinalizer) {
			return ctrl.Result{}, nil
		}
		if err := r.release(ctx, cm); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.dropFinalizer(ctx, cm)
	}
	if !holds(cm.GetFinalizers(), leaseFinalizer) {
		if err := r.keepFinalizer(ctx, cm); err != nil {
			return ctrl.Result{}, err // want "requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// release deletes the lease Secret the ConfigMap names.
func (r *LeaseReconciler) release(ctx context.Context, cm *corev1.ConfigMap) error { // want "finalizer-cleanup"
	lease := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: cm.Data["lease"], Namespace: cm.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, lease))
}

// keepFinalizer appends the finalizer and writes the ConfigMap.
func (r *LeaseReconciler) keepFinalizer(ctx context.Context, cm *corev1.ConfigMap) error {
	cm.Finalizers = append(cm.Finalizers, leaseFinalizer) // want "finalizer-add"
	return r.Update(ctx, cm)
}

// dropFinalizer filters the finalizer out and writes the ConfigMap.
func (r *LeaseReconciler) dropFinalizer(ctx context.Context, cm *corev1.ConfigMap) error {
	cm.Finalizers = filtered(cm.GetFinalizers(), leaseFinalizer) // want "finalizer-remove"
	return r.Update(ctx, cm)
}

// holds reports whether list holds s.
func holds(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// filtered is list without s.
func filtered(list []string, s string) []string {
	var kept []string
	for _, x := range list {
		if x == s {
			continue
		}
		kept = append(kept, x)
	}
	return kept
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *LeaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
