// Package timer marks Gauges whose reading is older than their timeout,
// and has the controller bring each back once its timeout has passed,
// through a callback the constructor sets.
package timer

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-shapes/pkg/apis/gauges/v1"
)

// staleAfter is how old a reading may be before the Gauge is stale.
const staleAfter = 30 * time.Minute // want "timer.Reconciler/trace:constant"

// Reconciler checks how old a Gauge's reading is; it implements no
// FinalizeKind, and no pass of it fails.
type Reconciler struct { // want-none "timer.Reconciler/finalizer-const" "timer.Reconciler/finalizer-add" "timer.Reconciler/finalizer-cleanup" "timer.Reconciler/finalizer-remove" "timer.Reconciler/requeue-error" "timer.Reconciler/drift"
	// onTimeout has the Gauge reconciled again after d.
	onTimeout func(key types.NamespacedName, d time.Duration)
}

// ReconcileKind marks a stale Gauge, and otherwise waits for its timeout.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "timer.Reconciler/reconcile-entry"
	age := time.Since(g.CreationTimestamp.Time)
	if age > staleAfter {
		g.Status.MarkStale("no reading for " + age.String())
		return nil
	}
	r.onTimeout(types.NamespacedName{Namespace: g.Namespace, Name: g.Name}, staleAfter)
	return nil
}
