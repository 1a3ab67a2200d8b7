// Package run checks a Gauge's value and finishes every pass through one
// helper that reports the outcome.
package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-shapes/pkg/apis/gauges/v1"
)

// recheck is how long a Gauge within its limit waits for its next check.
const recheck = 10 * time.Minute // want "run.Reconciler/trace:constant"

// Reconciler checks a Gauge against its limit; it implements no
// FinalizeKind.
type Reconciler struct { // want-none "run.Reconciler/finalizer-const" "run.Reconciler/finalizer-add" "run.Reconciler/finalizer-cleanup" "run.Reconciler/finalizer-remove" "run.Reconciler/drift"
	recorder record.EventRecorder
}

// ReconcileKind checks the value and hands every outcome to finish.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "run.Reconciler/reconcile-entry"
	g.Status.MarkRunning("Checking", "checking the value")
	if g.Spec.Limit < 0 {
		// decoy: requeue-error (a permanent error is terminal)
		return r.finish(ctx, g, controller.NewPermanentError(errors.New("spec.limit is negative")))
	}
	if err := r.check(g); err != nil {
		g.Status.MarkOverLimit(err.Error())
		return r.finish(ctx, g, err) // want "run.Reconciler/requeue-error"
	}
	g.Status.MarkWithinLimit()
	next := controller.NewRequeueAfter(recheck)
	return r.finish(ctx, g, next) // want "run.Reconciler/requeue-success" "run.Reconciler/trace:return"
}

// finish records the outcome of a pass on the Gauge and as an event, and
// hands the error back unchanged.
func (r *Reconciler) finish(ctx context.Context, g *gaugesv1.Gauge, err error) error {
	g.Status.ObservedGeneration = g.Generation
	if err != nil && !controller.IsPermanentError(err) {
		r.recorder.Event(g, corev1.EventTypeWarning, "CheckFailed", err.Error())
	}
	return err
}

func (r *Reconciler) check(g *gaugesv1.Gauge) error {
	if g.Spec.Value > g.Spec.Limit {
		return fmt.Errorf("value %d over limit %d", g.Spec.Value, g.Spec.Limit)
	}
	return nil
}
