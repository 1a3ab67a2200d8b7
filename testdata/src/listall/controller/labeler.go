// Package controller holds a reconciler that never reads the request's
// key: each pass lists every Namespace and labels those that lack the
// label, so the List is where it reads its own object again.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

const teamLabel = "example.com/team"

// LabelerReconciler labels every Namespace with the default team.
type LabelerReconciler struct {
	client.Client
	DefaultTeam string
}

// Reconcile ignores which Namespace changed and walks all of them.
func (r *LabelerReconciler) Reconcile(ctx context.Context, _ ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var all corev1.NamespaceList
	if err := r.List(ctx, &all); err != nil { // want "reread"
		return ctrl.Result{}, err
	}
	for i := range all.Items {
		ns := &all.Items[i]
		if ns.Labels[teamLabel] == r.DefaultTeam { // want "drift:compare"
			continue
		}
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[teamLabel] = r.DefaultTeam
		if err := r.Update(ctx, ns); err != nil { // want "drift:apply"
			return ctrl.Result{}, err // want "requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *LabelerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(r)
}
