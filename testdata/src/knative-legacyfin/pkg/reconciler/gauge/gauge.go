// Package gauge is the Gauge kind's hand-written reconciler.
package gauge

import (
	"context"
	"fmt"
	"log"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-legacyfin/pkg/apis/gauges/v1"
	"example.com/fixtures/knative-legacyfin/pkg/client/clientset/versioned"
)

// Reconciler checks a Gauge and its reading; it implements no
// FinalizeKind, and drops from the Gauges it sees the finalizer an older
// version put on them.
type Reconciler struct { // want-none "requeue-success" "interval-trace" "drift"
	client versioned.Interface
}

// ReconcileKind checks the limit and the reading, both every pass, and
// hands back their failures joined; the Gauge is checked again only when
// it changes.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "reconcile-entry"
	limitErr := r.checkLimit(g)
	readErr := r.checkReading(g)
	if limitErr == nil {
		g.Status.MarkWithinLimit()
	} else {
		g.Status.MarkOverLimit(limitErr.Error())
	}
	if len(g.Finalizers) > 0 {
		r.dropLegacyFinalizer(ctx, g)
	}
	return joinErrors(limitErr, readErr) // want "requeue-error"
}

// joinErrors hands back the failures it is given, one or both: it fails
// on nothing of its own.
func joinErrors(first, second error) error {
	if first == nil {
		return second
	}
	if second == nil {
		return first
	}
	return fmt.Errorf("%v; %v", first, second)
}

func (r *Reconciler) checkLimit(g *gaugesv1.Gauge) error {
	if g.Spec.Value > g.Spec.Limit {
		return fmt.Errorf("value %d over limit %d", g.Spec.Value, g.Spec.Limit)
	}
	return nil
}

func (r *Reconciler) checkReading(g *gaugesv1.Gauge) error {
	if g.Spec.Value < 0 {
		return fmt.Errorf("negative reading %d", g.Spec.Value)
	}
	return nil
}

// dropLegacyFinalizer removes, from a Gauge that is not being deleted, the
// finalizer versions before this one added, and writes the Gauge back.
func (r *Reconciler) dropLegacyFinalizer(ctx context.Context, g *gaugesv1.Gauge) {
	for i, f := range g.Finalizers {
		if f == "gauges.example.com/legacy" { // want "finalizer-const"
			g.Finalizers = append(g.Finalizers[:i], g.Finalizers[i+1:]...) // want "finalizer-remove"
			if _, err := r.client.GaugesV1().Gauges(g.Namespace).Update(ctx, g, metav1.UpdateOptions{}); err != nil {
				log.Printf("dropping the legacy finalizer of %s: %v", g.Name, err)
			}
			break
		}
	}
}
