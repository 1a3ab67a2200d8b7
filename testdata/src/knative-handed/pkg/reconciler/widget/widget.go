// Package widget is the Widget kind's hand-written reconciler.
package widget

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	widgetsv1 "example.com/fixtures/knative-handed/pkg/apis/widgets/v1"
)

// Reconciler probes a Widget's source.
type Reconciler struct { // want-none "drift"
	client *http.Client
}

// ReconcileKind probes the source and asks to be run again after the
// Widget's interval.
func (r *Reconciler) ReconcileKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "widget.Reconciler/reconcile-entry"
	w.Status.InitializeConditions()
	if w.Spec.Source == "" {
		return controller.NewPermanentError(errors.New("spec.source is empty")) // decoy: terminal, not requeued
	}
	if err := r.probe(ctx, w.Spec.Source); err != nil {
		w.Status.MarkProbed(err)
		return fmt.Errorf("probing %s: %w", w.Spec.Source, err) // want "widget.Reconciler/requeue-error"
	}
	w.Status.MarkProbed(nil)
	if w.Spec.Interval.Duration == 0 {
		// decoy: a bare warning event, which the generated Reconcile
		// reports and drops, not a failure that comes back
		return reconciler.NewEvent("Warning", "NoInterval", "%s has no interval", w.Name)
	}
	return controller.NewRequeueAfter(w.Spec.Interval.Duration) // want "widget.Reconciler/requeue-success" "widget.Reconciler/trace:return"
}

// FinalizeKind has nothing to clean up but the probe's connections.
func (r *Reconciler) FinalizeKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "widget.Reconciler/finalizer-cleanup"
	r.client.CloseIdleConnections()
	return nil
}

func (r *Reconciler) probe(ctx context.Context, source string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, source, nil)
	if err != nil {
		return err
	}
	resp, err := r.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}
