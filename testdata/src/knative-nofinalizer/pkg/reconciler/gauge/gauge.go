// Package gauge is the Gauge kind's hand-written reconciler.
package gauge

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-nofinalizer/pkg/apis/gauges/v1"
)

// Reconciler checks a Gauge; it implements no FinalizeKind.
type Reconciler struct{} // want-none "requeue-success" "interval-trace" "drift"

// ReconcileKind checks the value against the limit; the Gauge is checked
// again only when it changes.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "reconcile-entry"
	if err := r.check(g); err != nil {
		g.Status.MarkOverLimit(err.Error())
		return err // want "requeue-error"
	}
	g.Status.MarkWithinLimit()
	return reconciler.NewEvent(corev1.EventTypeNormal, "Checked", "gauge %s is within its limit", g.Name)
}

func (r *Reconciler) check(g *gaugesv1.Gauge) error {
	if g.Spec.Value > g.Spec.Limit {
		return fmt.Errorf("value %d over limit %d", g.Spec.Value, g.Spec.Limit)
	}
	return nil
}
