// Package controller holds reconcilers whose writes come after an early
// return of success. An unchanged object's pass may end there:
//   - under a test of the length of a difference the pass computed
//     (len(missing) == 0), whether it ends there is not proven, so the
//     write is not settled as made on every pass;
//   - under a flag set from an equality test of live state, it ends there
//     as the steady state does: the write is not made on every pass;
//   - under a test of the state a child is in against a constant (a
//     Deployment observed), the steady pass goes on to the write;
//   - under a test that a field of the object's status the pass itself
//     sets is there (a Job admitted), it ends there as the steady state
//     does.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "LabelReconciler/finalizer-const" "LabelReconciler/finalizer-add" "LabelReconciler/finalizer-cleanup" "LabelReconciler/finalizer-remove" "LabelReconciler/condition-types" "LabelReconciler/requeue-success" "LabelReconciler/interval-trace"

// LabelReconciler copies a ConfigMap's data onto the labels of the Secret
// of the same name.
type LabelReconciler struct {
	client.Client
}

// Reconcile hands the pass to label.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LabelReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "LabelReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.label(ctx, &cm) // want "LabelReconciler/requeue-error"
}

// label updates the Secret with the labels it lacks, when it lacks any.
func (r *LabelReconciler) label(ctx context.Context, cm *corev1.ConfigMap) error {
	var secret corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}, &secret); err != nil {
		return client.IgnoreNotFound(err)
	}
	missing := missingLabels(secret.Labels, cm.Data)
	if len(missing) == 0 { // want "LabelReconciler/drift:compare"
		return nil
	}
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	for k, v := range missing {
		secret.Labels[k] = v
	}
	return r.Update(ctx, &secret) // want "LabelReconciler/write-unsettled" "LabelReconciler/drift:apply"
}

// missingLabels is the part of want that have does not hold.
func missingLabels(have, want map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range want {
		if have[k] != v {
			out[k] = v
		}
	}
	return out
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *LabelReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
