// Package controller holds a reconciler whose every pass ends in a helper
// of another package that writes the status: its writes are made on every
// succeeding pass although that helper also returns early, with an error,
// on a failed one. The error it returns there is one the pass has tested
// against nil, or a new one: no succeeding pass ends there.
package controller

import (
	"context"
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/statusfinish/status"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// LabelReconciler reports in Deployments' status that it read them.
type LabelReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile lists the Deployment's ReplicaSets, then writes the outcome to
// its status.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var dep appsv1.Deployment
	if err := r.Get(ctx, req.NamespacedName, &dep); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var sets appsv1.ReplicaSetList
	if err := r.List(ctx, &sets, client.InNamespace(dep.Namespace), client.MatchingLabels(dep.Spec.Selector.MatchLabels)); err != nil {
		return ctrl.Result{}, err
	}
	return status.Finish(ctx, r.Client, r.Recorder, &dep, stale(&dep, &sets))
}

// stale is an error when the Deployment has no ReplicaSet yet.
func stale(dep *appsv1.Deployment, sets *appsv1.ReplicaSetList) error {
	if len(sets.Items) == 0 {
		return errors.New("no ReplicaSet of " + dep.Name + " yet")
	}
	return nil
}

// SetupWithManager registers the reconciler for Deployments.
func (r *LabelReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&appsv1.Deployment{}).Complete(r)
}
