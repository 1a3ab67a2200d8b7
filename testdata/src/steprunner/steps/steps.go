// Package steps runs a reconcile pass as a list of steps, each of which
// says whether the pass goes on: a runner that controllers share, handed
// the steps each one builds.
package steps

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Action says what the runner does after a step.
type Action int

// The actions.
const (
	Continue Action = iota
	Stop
	Retry
)

// retryDelay is how long the runner waits before a pass comes back after a
// step asked for a retry.
const retryDelay = 5 * time.Second

// Result is what a step did.
type Result struct {
	Action Action
	Err    error
}

// Step is one step of a pass.
type Step interface {
	Run(ctx context.Context, c client.Client) Result
}

// Runner runs its steps in turn.
type Runner struct {
	Steps  []Step
	Client client.Client
}

// Run runs the steps until one stops the pass or asks for a retry. A step's
// error is kept and the pass goes on; a retry drops it and comes back after
// a delay, whether or not a step failed.
func (r Runner) Run(ctx context.Context) (ctrl.Result, error) {
	var err error
	for _, s := range r.Steps {
		res := s.Run(ctx, r.Client)
		if res.Err != nil {
			err = res.Err
		}
		switch res.Action {
		case Stop:
			return ctrl.Result{}, err
		case Retry:
			return ctrl.Result{RequeueAfter: retryDelay}, nil // a retry or a success's interval: the error is dropped, not settled
		}
	}
	return ctrl.Result{}, err // want "BundleReconciler/requeue-error"
}

// Finalizer adds its finalizer to a live object and removes it from one
// being deleted, on a fresh copy.
type Finalizer struct {
	Object client.Object
	Name   string
}

// Run adds or removes the finalizer.
func (f Finalizer) Run(ctx context.Context, c client.Client) Result {
	fresh := f.Object.DeepCopyObject().(client.Object)
	if err := c.Get(ctx, client.ObjectKeyFromObject(f.Object), fresh); err != nil {
		return Result{Action: Retry, Err: err}
	}
	deleted := !fresh.GetDeletionTimestamp().IsZero()
	has := controllerutil.ContainsFinalizer(fresh, f.Name)
	if deleted && has { // the finalizer dropped in one step of several: the cleanup is another step, not settled
		controllerutil.RemoveFinalizer(fresh, f.Name) // want "BundleReconciler/finalizer-remove"
		return Result{Action: Stop, Err: c.Update(ctx, fresh)}
	}
	if !deleted && !has {
		controllerutil.AddFinalizer(fresh, f.Name) // want "BundleReconciler/finalizer-add"
		return Result{Action: Stop, Err: c.Update(ctx, fresh)}
	}
	return Result{}
}

// Deleter deletes its object.
type Deleter struct {
	Object client.Object
}

// Run deletes the object; one already gone is no failure.
func (d Deleter) Run(ctx context.Context, c client.Client) Result {
	if err := c.Delete(ctx, d.Object); err != nil && !apierrors.IsNotFound(err) {
		return Result{Action: Retry, Err: err}
	}
	return Result{}
}

// Applier creates its object, or updates it when it exists.
type Applier struct {
	Object client.Object
}

// Run creates or updates the object.
func (a Applier) Run(ctx context.Context, c client.Client) Result {
	err := c.Create(ctx, a.Object)
	if apierrors.IsAlreadyExists(err) {
		err = c.Update(ctx, a.Object)
	}
	if err != nil {
		return Result{Action: Retry, Err: err}
	}
	return Result{}
}
