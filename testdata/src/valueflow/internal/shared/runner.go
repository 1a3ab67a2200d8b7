// Package shared holds a reconciler several controllers run, each with its
// own way to write its object's status.
package shared

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
)

// Status writes one object's status.
type Status interface {
	Write(ctx context.Context) error
}

// Runner runs one pass over an object.
type Runner interface {
	Run(ctx context.Context, paused bool) (ctrl.Result, error)
}

// runner writes the status through the controller's Status.
type runner struct {
	status Status
}

// New is a Runner writing through status.
func New(status Status) Runner {
	return &runner{status: status}
}

// Run ends a paused pass early; any other pass writes the status.
func (r *runner) Run(ctx context.Context, paused bool) (ctrl.Result, error) {
	if paused {
		return ctrl.Result{}, nil
	}
	if err := r.status.Write(ctx); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}
