// Package controller holds a reconciler that keeps a Secret in line with
// the ConfigMap of the same name by recording each difference it finds in
// a slice, and updating the Secret when the slice holds any.
package controller

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/requeue-success" "MirrorReconciler/interval-trace"

// tierKey is the label the Secret carries from its ConfigMap.
const tierKey = "example.com/tier"

// MirrorReconciler copies a ConfigMap's data and tier label into the
// Secret of the same name.
type MirrorReconciler struct {
	client.Client
}

// Reconcile compares the live Secret with the one the ConfigMap asks for,
// field by field, and updates it when any differs.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	live := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, live); err != nil {
		return ctrl.Result{}, err
	}
	want := desiredData(cm)
	var diffs []string
	if !reflect.DeepEqual(live.StringData, want) { // want "MirrorReconciler/drift:compare"
		live.StringData = want
		diffs = append(diffs, "data")
	}
	if live.Labels[tierKey] != cm.Labels[tierKey] { // want "MirrorReconciler/drift:compare"
		if live.Labels == nil {
			live.Labels = map[string]string{}
		}
		live.Labels[tierKey] = cm.Labels[tierKey]
		diffs = append(diffs, "tier")
	}
	if len(diffs) > 0 { // want "MirrorReconciler/drift:compare"
		if err := r.Update(ctx, live); err != nil { // want "MirrorReconciler/drift:apply"
			return ctrl.Result{}, err // want "MirrorReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// desiredData is the Secret's data the ConfigMap asks for.
func desiredData(cm *corev1.ConfigMap) map[string]string {
	out := map[string]string{}
	for k, v := range cm.Data {
		out[k] = v
	}
	return out
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("mirror").For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
