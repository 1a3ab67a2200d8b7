// Package widget is the Widget kind's hand-written reconciler.
package widget

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	widgetsv1 "example.com/fixtures/knative-finwrite/pkg/apis/widgets/v1"
)

// recheckAfter is how long a Widget whose probe passed waits before the
// next probe.
const recheckAfter = 10 * time.Minute // want "trace:constant"

// Reconciler probes a Widget's source with the credentials of the Secret
// named after it, and deletes that Secret when the Widget goes.
type Reconciler struct { // want-none "drift"
	client *http.Client
	kube   kubernetes.Interface
	probes *prober
}

// prober schedules the next probe through the controller's queue.
type prober struct {
	recheck func(interface{}, time.Duration)
}

// newProber keeps the delayed enqueue it is handed.
func newProber(recheck func(interface{}, time.Duration)) *prober {
	return &prober{recheck: recheck}
}

// schedule brings the Widget back after recheckAfter.
func (p *prober) schedule(w *widgetsv1.Widget) {
	p.recheck(w, recheckAfter) // want "requeue-success" "trace:return"
}

// ReconcileKind probes the source, within a deadline, and schedules the
// next probe through the prober.
func (r *Reconciler) ReconcileKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "reconcile-entry"
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	w.Status.InitializeConditions()
	if w.Spec.Source == "" {
		return controller.NewPermanentError(errors.New("spec.source is empty")) // decoy: terminal, not requeued
	}
	err := r.probe(ctx, w.Spec.Source)
	if err != nil {
		w.Status.MarkProbed(err)
		return err // want "requeue-error"
	}
	w.Status.MarkProbed(nil)
	r.probes.schedule(w)
	// decoy: err is nil here, the test above returned every other value
	return err
}

// FinalizeKind deletes the Widget's Secret; the finalizer goes once the
// delete succeeds (a nil event), and stays while it fails.
func (r *Reconciler) FinalizeKind(ctx context.Context, w *widgetsv1.Widget) reconciler.Event { // want "finalizer-cleanup"
	r.client.CloseIdleConnections()
	return r.kube.CoreV1().Secrets(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{})
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
