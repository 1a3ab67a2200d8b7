// Package controller holds the Stack reconciler.
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/fluxcd/pkg/ssa"

	stackv1 "example.com/fixtures/ssaidle/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// StackReconciler server-side applies the manifests of a Stack on every
// pass; the resource manager writes only the objects that drifted.
type StackReconciler struct {
	client.Client
	Manager *ssa.ResourceManager
}

// SetupWithManager registers the reconciler with the manager.
func (r *StackReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&stackv1.Stack{}).Complete(r)
}

// Reconcile applies the Stack's manifests.
func (r *StackReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	stack := &stackv1.Stack{}
	if err := r.Get(ctx, req.NamespacedName, stack); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var objects []*unstructured.Unstructured
	for _, m := range stack.Spec.Manifests {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal([]byte(m), &u.Object); err != nil {
			return ctrl.Result{}, err
		}
		objects = append(objects, u)
	}
	if _, err := r.Manager.ApplyAllStaged(ctx, objects, ssa.DefaultApplyOptions()); err != nil { // want "drift:apply"
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}
