// Package gauge checks Gauges, a kind another module declares together
// with its generated reconciler: that reconciler (a dependency) re-reads
// the Gauge, keeps its finalizer and writes its status.
package gauge

import (
	"context"
	"fmt"

	"knative.dev/pkg/apis"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/gaugelib/pkg/apis/gauges/v1"
)

// ConditionChecked says the controller has checked the Gauge: a condition
// of its own set, beside those the kind's methods (in the dependency) set.
const ConditionChecked apis.ConditionType = "Checked" // want "condition-type:Checked"

// checks is the controller's own condition set over the Gauge's status.
var checks = apis.NewLivingConditionSet(ConditionChecked)

// Reconciler checks a Gauge against the limit it registered, and forgets
// the limit when the Gauge goes.
type Reconciler struct { // want-none "drift" "requeue-success" "interval-trace"
	limits map[string]int64
}

// ReconcileKind records the Gauge's limit and checks its value.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "reconcile-entry"
	r.limits[g.Namespace+"/"+g.Name] = g.Spec.Limit
	checks.Manage(&g.Status).MarkTrue(ConditionChecked) // want "condition-set:Checked" "condition-type:Ready" "condition-set:Ready"
	if g.Spec.Value > g.Spec.Limit {
		g.Status.MarkOverLimit("over the limit")
		return fmt.Errorf("value %d over limit %d", g.Spec.Value, g.Spec.Limit) // want "requeue-error"
	}
	g.Status.MarkWithinLimit() // want "condition-type:WithinLimit" "condition-set:WithinLimit" "condition-type:Succeeded" "condition-set:Succeeded"
	return nil
}

// FinalizeKind forgets the Gauge's limit.
func (r *Reconciler) FinalizeKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "finalizer-cleanup"
	delete(r.limits, g.Namespace+"/"+g.Name)
	return nil
}
