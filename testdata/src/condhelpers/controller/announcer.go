package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fluxcd/pkg/apis/meta"
	"github.com/fluxcd/pkg/runtime/conditions"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// WidgetAnnouncer hands each pass to a helper that defers an event, and
// defers its own status write: both run on every pass. The return each
// deferring function has after a recovered panic ends no pass.
type WidgetAnnouncer struct {
	client.Client
	record.EventRecorder
}

// Reconcile announces the Widget and writes its status when the pass ends.
func (r *WidgetAnnouncer) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "WidgetAnnouncer/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "WidgetAnnouncer/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if err := r.Status().Update(ctx, &obj); err != nil { // want "WidgetAnnouncer/write-always"
			retErr = err // want "WidgetAnnouncer/requeue-error"
		}
	}()
	result, retErr = r.announce(ctx, &obj)
	return
}

// announce marks the Widget ready and records an event as it returns.
func (r *WidgetAnnouncer) announce(ctx context.Context, obj *v1.Widget) (result ctrl.Result, retErr error) {
	defer func() {
		r.Eventf(obj, corev1.EventTypeNormal, meta.SucceededReason, "announced") // want "WidgetAnnouncer/write-always"
	}()
	conditions.MarkTrue(obj, meta.ReadyCondition, meta.SucceededReason, "announced") // want "WidgetAnnouncer/condition-type:Ready" "WidgetAnnouncer/condition-set:Ready"
	return ctrl.Result{}, nil
}

// SetupWithManager registers the announcer for Widgets.
func (r *WidgetAnnouncer) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Named("widget-announcer").Complete(r)
}
