// Package gauge is the Gauge kind's hand-written reconciler.
package gauge

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/reconciler"

	"example.com/fixtures/marklib/calibration"

	gaugesv1 "example.com/fixtures/knative-nofinalizer/pkg/apis/gauges/v1"
)

// Reconciler checks a Gauge; it implements no FinalizeKind. Its prober's
// delayed add is on a queue of the prober's own, not the controller's.
type Reconciler struct { // want-none "requeue-success" "interval-trace" "drift"
	prober *prober
}

// ReconcileKind checks the value against the limit; the Gauge is checked
// again only when it changes.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "reconcile-entry"
	if err := r.check(g); err != nil {
		g.Status.MarkOverLimit(err.Error())
		return err
	}
	// A dependency marks the status through an interface it is handed.
	if err := calibration.Check(g.Spec.Offset, &g.Status); err != nil {
		return err
	}
	// The helper's error is a plain error on one path (retried) and a
	// bare warning event on another (recorded and dropped): the return
	// is the main work's failure, not a terminal one.
	if _, err := r.headroom(g); err != nil {
		return err // want "requeue-error"
	}
	g.Status.MarkWithinLimit()
	r.prober.probe(g)
	return reconciler.NewEvent(corev1.EventTypeNormal, "Checked", "gauge %s is within its limit", g.Name)
}

// headroom is what is left under the limit.
func (r *Reconciler) headroom(g *gaugesv1.Gauge) (int64, error) {
	if g.Spec.Limit == 0 {
		return 0, noLimit(g.Name)
	}
	if g.Spec.Value < 0 {
		return 0, fmt.Errorf("negative value %d", g.Spec.Value)
	}
	return g.Spec.Limit - g.Spec.Value, nil
}

func noLimit(name string) reconciler.Event {
	return reconciler.NewEvent(corev1.EventTypeWarning, "NoLimit", "gauge %s has no limit", name)
}

func (r *Reconciler) check(g *gaugesv1.Gauge) error {
	if g.Spec.Value > g.Spec.Limit {
		return fmt.Errorf("value %d over limit %d", g.Spec.Value, g.Spec.Limit)
	}
	return nil
}
