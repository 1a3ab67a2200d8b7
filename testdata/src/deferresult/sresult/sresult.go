// Package sresult turns what the sub-steps of a pass report into the
// controller-runtime result, through a builder chosen by the controller.
package sresult

import (
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fluxcd/pkg/runtime/patch"
)

// Outcome is what a pass reports, before it becomes a runtime result.
type Outcome int

const (
	// OutcomeEmpty asks for nothing.
	OutcomeEmpty Outcome = iota
	// OutcomeRequeue asks to come back at once.
	OutcomeRequeue
	// OutcomeSuccess says the pass did all it had to.
	OutcomeSuccess
)

// Builder makes the runtime result of an outcome.
type Builder interface {
	Build(o Outcome, err error) ctrl.Result
}

// Waiting is an error that asks to come back after a while.
type Waiting struct {
	After time.Duration
	Err   error
}

func (w *Waiting) Error() string { return w.Err.Error() }

// PeriodicBuilder brings every successful object back after Every.
type PeriodicBuilder struct {
	Every time.Duration
}

// Build implements Builder.
func (b PeriodicBuilder) Build(o Outcome, err error) ctrl.Result {
	if w, ok := err.(*Waiting); ok {
		return ctrl.Result{RequeueAfter: w.After}
	}
	switch o {
	case OutcomeRequeue:
		return ctrl.Result{Requeue: true}
	case OutcomeSuccess:
		return ctrl.Result{RequeueAfter: b.Every}
	default:
		return ctrl.Result{}
	}
}

// Compute makes the runtime result and the error of a pass, with the
// options the final patch takes.
func Compute(obj client.Object, o Outcome, recErr error, b Builder) ([]patch.Option, ctrl.Result, error) {
	var opts []patch.Option
	var res ctrl.Result
	if b != nil {
		res = b.Build(o, recErr)
	}
	if _, ok := recErr.(*Waiting); ok {
		return opts, res, nil
	}
	if recErr == nil && o == OutcomeSuccess {
		opts = append(opts, patch.WithStatusObservedGeneration{})
	}
	return opts, res, recErr
}
