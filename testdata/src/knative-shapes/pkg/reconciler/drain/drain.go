// Package drain archives a Gauge, then waits out its grace period: each
// step is a helper whose event the pass hands on under its test of that
// event against nil, the archive's failure or the wait's requeue.
package drain

import (
	"context"
	"errors"
	"time"

	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-shapes/pkg/apis/gauges/v1"
)

// grace is how long a Gauge is kept after it is archived.
const grace = 10 * time.Minute // want "drain.Reconciler/trace:constant"

// Reconciler drains Gauges; it implements no FinalizeKind.
type Reconciler struct{} // want-none "drain.Reconciler/finalizer-const" "drain.Reconciler/finalizer-add" "drain.Reconciler/finalizer-cleanup" "drain.Reconciler/finalizer-remove" "drain.Reconciler/drift"

// ReconcileKind archives the Gauge, then waits.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "drain.Reconciler/reconcile-entry"
	var err error
	if err = r.archive(g); err != nil {
		return err // want "drain.Reconciler/requeue-error"
	}
	if err = r.wait(g); err != nil {
		return err
	}
	return nil
}

// archive fails on a Gauge with no limit.
func (r *Reconciler) archive(g *gaugesv1.Gauge) error {
	if g.Spec.Limit == 0 {
		return errors.New("spec.limit is not set")
	}
	return nil
}

// wait has the Gauge looked at again once its grace period has passed.
func (r *Reconciler) wait(g *gaugesv1.Gauge) error {
	if time.Since(g.CreationTimestamp.Time) < grace {
		return controller.NewRequeueAfter(grace) // want "drain.Reconciler/requeue-success" "drain.Reconciler/trace:return"
	}
	return nil
}
