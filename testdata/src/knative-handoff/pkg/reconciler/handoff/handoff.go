// Package handoff waits while a Gauge's value moves: where the pass finds
// the requeue its helper asked for, it hands it to a function of its own,
// called from that one place, whose return hands it back.
package handoff

import (
	"context"
	"fmt"
	"time"

	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-handoff/pkg/apis/gauges/v1"
)

// moveWait is how long a moving Gauge waits before it is looked at again.
const moveWait = 20 * time.Second // want "trace:constant"

// errMoving asks for the Gauge to be reconciled again after moveWait.
var errMoving = controller.NewRequeueAfter(moveWait)

// Reconciler waits for a Gauge to stop moving; it implements no FinalizeKind.
type Reconciler struct{} // want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "drift"

// ReconcileKind rejects a negative limit, then waits while the Gauge moves.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "reconcile-entry"
	if g.Spec.Limit < 0 {
		return rejectLimit(g)
	}
	if err := moving(g); err != nil {
		if err == errMoving {
			return keepWaiting(err)
		}
		return nil
	}
	g.Status.MarkWithinLimit()
	return nil
}

// rejectLimit fails the pass on a negative limit.
func rejectLimit(g *gaugesv1.Gauge) reconciler.Event {
	return fmt.Errorf("spec.limit %d is negative", g.Spec.Limit) // want "requeue-error"
}

// keepWaiting hands back the requeue the pass found.
func keepWaiting(err error) reconciler.Event {
	return err // want "requeue-success" "trace:return"
}

// moving hands back errMoving until the Gauge's status catches up.
func moving(g *gaugesv1.Gauge) error {
	if g.Status.ObservedGeneration != g.Generation {
		return errMoving
	}
	return nil
}
