package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/steprunner/steps"
)

// want-none "SweepReconciler/finalizer-const" "SweepReconciler/finalizer-add" "SweepReconciler/finalizer-cleanup" "SweepReconciler/finalizer-remove" "SweepReconciler/condition-types" "SweepReconciler/drift"

// sweepEvery is how often a Secret not yet expired is looked at again.
const sweepEvery = time.Hour // want "SweepReconciler/trace:constant"

// SweepReconciler deletes the Secrets labelled expired, through the shared
// runner with a single step: no finalizer of the Bundle's is on its path.
type SweepReconciler struct {
	client.Client
}

// Reconcile deletes an expired Secret, and looks again later at one that
// is not.
func (r *SweepReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SweepReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "SweepReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "SweepReconciler/requeue-error"
	}
	if s.Labels["example.com/expired"] != "true" {
		return ctrl.Result{RequeueAfter: sweepEvery}, nil // want "SweepReconciler/requeue-success" "SweepReconciler/trace:return"
	}
	return steps.Runner{Steps: []steps.Step{steps.Deleter{Object: &s}}, Client: r.Client}.Run(ctx)
}

// SetupWithManager registers the reconciler for Secrets.
func (r *SweepReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
