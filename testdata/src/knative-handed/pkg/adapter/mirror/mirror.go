// Package mirror keeps a table of the Widgets' sources: a second
// hand-written type handed to the same generated reconciler as the Widget
// controller's, a controller of its own.
package mirror

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/types"
	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	widgetsv1 "example.com/fixtures/knative-handed/pkg/apis/widgets/v1"
)

// Reconciler records each Widget's source.
type Reconciler struct { // want-none "mirror.Reconciler/finalizer-const" "mirror.Reconciler/finalizer-add" "mirror.Reconciler/finalizer-cleanup" "mirror.Reconciler/finalizer-remove" "mirror.Reconciler/condition-types" "mirror.Reconciler/requeue-error" "mirror.Reconciler/requeue-success" "mirror.Reconciler/interval-trace"
	mu      sync.Mutex
	sources map[string]string
	impl    *controller.Impl
}

// ReconcileKind records the Widget's source and reports it; it never
// fails and never asks to run again.
func (r *Reconciler) ReconcileKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "mirror.Reconciler/reconcile-entry"
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sources[w.Namespace+"/"+w.Name] = w.Spec.Source
	return reconciler.NewEvent("Normal", "Mirrored", "mirrored %s", w.Name)
}

// ObserveDeletion forgets a Widget that is gone; its error, handed back by
// the generated Reconcile, brings the key back.
func (r *Reconciler) ObserveDeletion(ctx context.Context, key types.NamespacedName) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.sources[key.String()]; !ok {
		return fmt.Errorf("%s was never mirrored", key)
	}
	delete(r.sources, key.String())
	return nil
}
