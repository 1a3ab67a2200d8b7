// Package controller holds a reconciler that hands the rest of its pass to
// a helper as soon as its read succeeds (if err == nil { return r.rest(…)
// }), writes in a loop over a slice literal, and runs a step chosen
// between two function values.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// RestReconciler labels a ConfigMap's Secret, then the ConfigMap.
type RestReconciler struct {
	client.Client
	// Paused stops every pass before it writes.
	Paused bool
}

// Reconcile reads the ConfigMap and hands the rest of the pass to rest.
func (r *RestReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err == nil { // want "reread"
		return r.rest(ctx, &cm)
	} else {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
}

// rest labels the Secret named after the ConfigMap, runs the step its
// mode picks, and labels the ConfigMap.
func (r *RestReconciler) rest(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	if r.Paused {
		return ctrl.Result{}, nil // decoy: an opt-out, not the end of an unchanged pass
	}
	for _, s := range []*corev1.Secret{secretOf(cm)} {
		if err := r.Update(ctx, s); err != nil { // want "write-always"
			return ctrl.Result{}, err // decoy: requeue-error (a failure before the last return)
		}
	}
	step := r.audit
	if cm.Data["mode"] == "strict" {
		step = r.stamp
	}
	if err := step(ctx, cm); err != nil {
		return ctrl.Result{}, err
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["labelled"] = "true"
	return ctrl.Result{}, r.Update(ctx, cm) // want "requeue-error" "write-always"
}

// secretOf is the Secret named after the ConfigMap.
func secretOf(cm *corev1.ConfigMap) *corev1.Secret {
	s := &corev1.Secret{}
	s.Name, s.Namespace = cm.Name+"-labelled", cm.Namespace
	return s
}

// audit writes nothing: the ConfigMap is read already.
func (r *RestReconciler) audit(context.Context, *corev1.ConfigMap) error {
	return nil
}

// stamp writes a strict ConfigMap's Secret: only when the mode picks it.
func (r *RestReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap) error {
	return r.Create(ctx, secretOf(cm)) // decoy: write-always (one of two function values)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *RestReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
