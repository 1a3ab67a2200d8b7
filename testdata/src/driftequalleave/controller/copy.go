// Package controller holds a reconciler whose comparison of desired with
// live state leaves early when the two are equal, after marking the
// Secret checked: the difference is applied by the update after the test,
// on the path where they differ, not by the write made in the branch that
// leaves.
package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "CopyReconciler/finalizer-const" "CopyReconciler/finalizer-add" "CopyReconciler/finalizer-cleanup" "CopyReconciler/finalizer-remove" "CopyReconciler/condition-types" "CopyReconciler/requeue-success" "CopyReconciler/interval-trace"

// checkedKey is the annotation a Secret found in step carries.
const checkedKey = "example.com/checked"

// CopyReconciler copies a ConfigMap's data into the Secret of the same
// name.
type CopyReconciler struct {
	client.Client
}

// Reconcile leaves a Secret in step marked as checked, and brings one out
// of step in line.
func (r *CopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CopyReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "CopyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	live := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, live); err != nil {
		return ctrl.Result{}, err
	}
	if equality.Semantic.DeepEqual(live.StringData, cm.Data) { // want "CopyReconciler/drift:compare"
		return ctrl.Result{}, r.markChecked(ctx, live)
	}
	live.StringData = cm.Data
	if err := r.Update(ctx, live); err != nil { // want "CopyReconciler/drift:apply"
		return ctrl.Result{}, err // want "CopyReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// markChecked annotates a Secret found in step.
func (r *CopyReconciler) markChecked(ctx context.Context, s *corev1.Secret) error {
	patch := client.MergeFrom(s.DeepCopy())
	if s.Annotations == nil {
		s.Annotations = map[string]string{}
	}
	s.Annotations[checkedKey] = "true"
	if err := r.Patch(ctx, s, patch); err != nil {
		return fmt.Errorf("mark %s checked: %w", s.Name, err)
	}
	return nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *CopyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("copy").For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
