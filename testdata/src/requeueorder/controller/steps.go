package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// want-none "StepsReconciler/requeue-success" "StepsReconciler/interval-trace"

// Step is a stage of a pass that a plug-in provides: it may ask for a
// requeue, and fail.
type Step func(ctx context.Context, ep *corev1.Endpoints) (*reconcile.Result, error)

// StepsReconciler runs the plug-in steps it is given on Endpoints. The
// result it hands back is a step's, which ctrlcmp does not follow (whether
// a success requeues is not settled); the error handed back with it is the
// read's or a step's, a failure either way.
type StepsReconciler struct {
	client.Client
	Steps []Step
}

// Reconcile runs the steps.
func (r *StepsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StepsReconciler/reconcile-entry"
	return r.run(ctx, req)
}

// run reads the Endpoints and runs each step until one fails.
func (r *StepsReconciler) run(ctx context.Context, req ctrl.Request) (reconcile.Result, error) {
	var res reconcile.Result
	var ep corev1.Endpoints
	err := client.IgnoreNotFound(r.Get(ctx, req.NamespacedName, &ep)) // want "StepsReconciler/reread"
	for _, step := range r.Steps {
		if err != nil {
			break
		}
		out, stepErr := step(ctx, &ep)
		if out != nil {
			res = *out
		}
		err = stepErr
	}
	return res, err // want "StepsReconciler/requeue-error"
}
