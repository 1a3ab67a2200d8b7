// Package beacon is the Beacon kind's hand-written reconciler.
package beacon

import (
	"context"
	"fmt"

	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	beaconsv1 "example.com/fixtures/knative-enqueueafter/pkg/apis/beacons/v1"
	"example.com/fixtures/knative-enqueueafter/pkg/reconciler/beacon/config"
)

// Reconciler checks a Beacon, then has the controller bring it back after
// the period of the config map; it implements no FinalizeKind.
type Reconciler struct { // want-none "drift"
	impl *controller.Impl
}

// ReconcileKind checks the value against the limit and enqueues the Beacon
// again after the configured period.
func (r *Reconciler) ReconcileKind(ctx context.Context, b *beaconsv1.Beacon) reconciler.Event { // want "reconcile-entry"
	if b.Spec.Value > b.Spec.Limit {
		b.Status.MarkOverLimit(fmt.Sprintf("value %d over limit %d", b.Spec.Value, b.Spec.Limit))
		return fmt.Errorf("value %d over limit %d", b.Spec.Value, b.Spec.Limit) // want "requeue-error"
	}
	b.Status.MarkWithinLimit()
	r.impl.EnqueueAfter(b, config.FromContext(ctx).Period) // want "requeue-success" "trace:return"
	return nil
}
