// Package settle waits for a Gauge's value to settle: a helper hands back
// a requeue made once, in a package variable, and the pass hands it on
// under its test of the helper's error, where it is a wait, not a failure.
package settle

import (
	"context"
	"errors"
	"time"

	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-shapes/pkg/apis/gauges/v1"
)

// settleWait is how long an unsettled Gauge waits before it is looked at
// again.
const settleWait = 30 * time.Second // want "settle.Reconciler/trace:constant"

// errSettling asks for the Gauge to be reconciled again after settleWait.
var errSettling = controller.NewRequeueAfter(settleWait)

// Reconciler waits for a Gauge to settle; it implements no FinalizeKind.
type Reconciler struct{} // want-none "settle.Reconciler/finalizer-const" "settle.Reconciler/finalizer-add" "settle.Reconciler/finalizer-cleanup" "settle.Reconciler/finalizer-remove" "settle.Reconciler/drift"

// ReconcileKind checks the Gauge's limit, then waits while it settles.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "settle.Reconciler/reconcile-entry"
	if g.Spec.Limit < 0 {
		return errors.New("spec.limit is negative") // want "settle.Reconciler/requeue-error"
	}
	if err := settled(g); err != nil {
		if err == errSettling {
			return err // want "settle.Reconciler/requeue-success" "settle.Reconciler/trace:return"
		}
		return nil
	}
	g.Status.MarkWithinLimit()
	return nil
}

// settled hands back errSettling while the value moves.
func settled(g *gaugesv1.Gauge) error {
	if g.Status.ObservedGeneration != g.Generation {
		return errSettling
	}
	return nil
}
