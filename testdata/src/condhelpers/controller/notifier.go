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

// WidgetNotifier marks each Widget ready and records an event when a pass
// ends, in a function Reconcile defers: a warning after a failure or on a
// stalled Widget, a normal event after a pass that leaves the Widget ready.
// A pass of an unchanged Widget succeeds and leaves it ready, so that
// event is written on every pass; the warnings are not.
type WidgetNotifier struct {
	client.Client
	record.EventRecorder
}

// Reconcile marks the Widget ready and writes its status.
func (r *WidgetNotifier) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "WidgetNotifier/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "WidgetNotifier/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer func() {
		if retErr != nil {
			r.Eventf(&obj, corev1.EventTypeWarning, meta.FailedReason, "%s", retErr)
		}
		if conditions.IsStalled(&obj) {
			r.Eventf(&obj, corev1.EventTypeWarning, meta.StalledCondition, "stalled")
		}
		if retErr == nil && conditions.IsReady(&obj) {
			r.Eventf(&obj, corev1.EventTypeNormal, meta.SucceededReason, "ready") // want "WidgetNotifier/write-always"
		}
	}()

	conditions.MarkTrue(&obj, meta.ReadyCondition, meta.SucceededReason, "notified") // want "WidgetNotifier/condition-type:Ready" "WidgetNotifier/condition-set:Ready"
	if err := r.Status().Update(ctx, &obj); err != nil {                             // want "WidgetNotifier/write-always"
		return ctrl.Result{}, err // want "WidgetNotifier/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the notifier for Widgets.
func (r *WidgetNotifier) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Named("widget-notifier").Complete(r)
}
