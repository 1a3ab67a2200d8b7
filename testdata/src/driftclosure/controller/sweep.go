// Package controller holds a reconciler that keeps a label on its objects
// and whose state tests hand what they found to a function literal that
// deletes it: one assigned before the test and called in its branch, one
// called where it stands.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SweepReconciler/finalizer-const" "SweepReconciler/finalizer-add" "SweepReconciler/finalizer-cleanup" "SweepReconciler/finalizer-remove" "SweepReconciler/condition-types" "SweepReconciler/requeue-success" "SweepReconciler/interval-trace"

const (
	// ownerLabel names the team a ConfigMap belongs to.
	ownerLabel = "example.com/owner"
	// staleLabel marks a ConfigMap nothing reads any more.
	staleLabel = "example.com/stale"
	// expiredAnnotation marks a ConfigMap past its lifetime.
	expiredAnnotation = "example.com/expired"
)

// SweepReconciler labels each ConfigMap with its team and deletes the
// ConfigMaps marked stale or expired.
type SweepReconciler struct {
	client.Client
	// Team is the team that owns the ConfigMaps.
	Team string
}

// Reconcile labels one ConfigMap, or deletes it when it is marked.
func (r *SweepReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SweepReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "SweepReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Labels[ownerLabel] != r.Team { // want "SweepReconciler/drift:compare"
		return ctrl.Result{}, r.relabel(ctx, &cm) // want "SweepReconciler/drift:apply"
	}
	sweep := func() error { return r.sweep(ctx, &cm) } // want "SweepReconciler/drift:apply"
	if cm.Labels[staleLabel] == "true" {               // want "SweepReconciler/drift:compare"
		return ctrl.Result{}, sweep()
	}
	if cm.Annotations[expiredAnnotation] == "true" { // want "SweepReconciler/drift:compare"
		return ctrl.Result{}, func() error { return r.sweep(ctx, &cm) }() // want "SweepReconciler/drift:apply" "SweepReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// relabel writes the team on a ConfigMap.
func (r *SweepReconciler) relabel(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[ownerLabel] = r.Team
	return r.Update(ctx, cm)
}

// sweep deletes a ConfigMap, gone or not.
func (r *SweepReconciler) sweep(ctx context.Context, cm *corev1.ConfigMap) error {
	return client.IgnoreNotFound(r.Delete(ctx, cm))
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *SweepReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("sweep").For(&corev1.ConfigMap{}).Complete(r)
}
