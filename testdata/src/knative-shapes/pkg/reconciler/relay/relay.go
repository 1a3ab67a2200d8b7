// Package relay checks a Gauge and hands the outcome to a helper that
// returns the error it is given: the event the pass returns is assigned
// from a call handed that same variable.
package relay

import (
	"context"
	"errors"

	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-shapes/pkg/apis/gauges/v1"
)

// Reconciler relays a Gauge's check; it implements no FinalizeKind.
type Reconciler struct{} // want-none "relay.Reconciler/condition-types" "relay.Reconciler/finalizer-const" "relay.Reconciler/finalizer-add" "relay.Reconciler/finalizer-cleanup" "relay.Reconciler/finalizer-remove" "relay.Reconciler/requeue-success" "relay.Reconciler/interval-trace" "relay.Reconciler/drift"

// ReconcileKind checks the Gauge and relays the outcome.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "relay.Reconciler/reconcile-entry"
	err := r.check(g)
	err = r.finish(err)
	if err != nil {
		return err // want "relay.Reconciler/requeue-error"
	}
	return nil
}

func (r *Reconciler) check(g *gaugesv1.Gauge) error {
	if g.Spec.Limit == 0 {
		return errors.New("spec.limit is not set")
	}
	return nil
}

// finish hands back the error it is given.
func (r *Reconciler) finish(err error) error {
	return err
}
