package controller

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/requeue-success" "MirrorReconciler/interval-trace"

// sourceLabel, on a Bundle, names the ConfigMap it mirrors.
const sourceLabel = "example.com/source"

// MirrorReconciler keeps a Bundle's spec in step with a source ConfigMap:
// the Bundle's own spec is the state it applies, so the comparison with
// the ConfigMap guards a write of the Bundle that applies the difference.
// Labelling the Bundle with its source is bookkeeping, not drift.
type MirrorReconciler struct {
	client.Client
}

// Reconcile copies the source ConfigMap's data into the Bundle's spec.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	src := &corev1.ConfigMap{}
	if err := r.Get(ctx, types.NamespacedName{Namespace: req.Namespace, Name: req.Name + "-source"}, src); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if b.Labels[sourceLabel] != src.Name {
		if b.Labels == nil {
			b.Labels = map[string]string{}
		}
		b.Labels[sourceLabel] = src.Name
		if err := r.Update(ctx, b); err != nil {
			return ctrl.Result{}, err
		}
	}
	if !reflect.DeepEqual(src.Data, b.Spec.Data) { // want "MirrorReconciler/drift:compare"
		b.Spec.Data = src.Data
		if err := r.Update(ctx, b); err != nil { // want "MirrorReconciler/drift:apply"
			return ctrl.Result{}, err // want "MirrorReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Bundles.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("mirror").For(&v1.Bundle{}).Complete(r)
}
