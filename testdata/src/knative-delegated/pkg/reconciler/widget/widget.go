// Package widget signs Widgets: a hand-written reconciler whose
// ReconcileKind hands its whole pass to FinalizeKind, so that a Widget is
// signed both once it settles and before it goes.
package widget

import (
	"context"
	"errors"

	"knative.dev/pkg/reconciler"

	widgetsv1 "example.com/fixtures/knative-delegated/pkg/apis/widgets/v1"
)

// signerFinalizer holds the finalizer's name too, but the options are
// given the literal (decoy: this constant is not what the generated code
// adds).
const signerFinalizer = "signers.widgets.example.com"

// waiter tells the signer when a Widget's source has settled.
type waiter interface {
	Wait(source string, w *widgetsv1.Widget) error
}

// Reconciler signs each Widget once its source has settled.
type Reconciler struct { // want-none "requeue-success" "interval-trace" "drift" "condition-types"
	sources waiter
	signed  map[string]string
	key     []byte
}

// ReconcileKind signs a settled Widget: the same work as on deletion.
func (r *Reconciler) ReconcileKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "reconcile-entry"
	return r.FinalizeKind(ctx, w)
}

// FinalizeKind signs the Widget unless it is signed already.
func (r *Reconciler) FinalizeKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "finalizer-cleanup"
	if r.signed[w.Namespace+"/"+w.Name] != "" {
		return nil
	}
	if w.Spec.Source != "" && r.signed[w.Spec.Source] == "" {
		// decoy: a wait on the source, handed back from a helper
		// declared after this function; not the main work's failure
		return r.await(w)
	}
	if err := r.sign(w); err != nil {
		return err // want "requeue-error"
	}
	// decoy: marked in memory only, the generated Reconcile being told
	// to skip the status update
	w.Status.MarkSourceReady()
	return nil
}

// await registers the Widget to be signed again when its source settles.
func (r *Reconciler) await(w *widgetsv1.Widget) error {
	return r.sources.Wait(w.Spec.Source, w)
}

// sign records the Widget's signature.
func (r *Reconciler) sign(w *widgetsv1.Widget) error {
	if len(r.key) == 0 {
		return errors.New("no signing key")
	}
	if w.Annotations[signerFinalizer] == "skip" {
		return nil
	}
	r.signed[w.Namespace+"/"+w.Name] = string(r.key)
	return nil
}
