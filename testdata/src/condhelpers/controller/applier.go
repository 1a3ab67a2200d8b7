package controller

import (
	"context"
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// want-none "WidgetApplier/finalizer-const" "WidgetApplier/finalizer-add" "WidgetApplier/finalizer-cleanup" "WidgetApplier/finalizer-remove"
// want-none "WidgetApplier/requeue-success" "WidgetApplier/interval-trace" "WidgetApplier/drift"

// WidgetApplier reconciles Widgets by applying their status: the Ready
// condition is built as an apply configuration, which ctrlcmp does not
// follow to the object; its condition types are not settled, never a
// false none.
type WidgetApplier struct {
	client.Client
}

// Reconcile applies the Widget's Ready condition.
func (r *WidgetApplier) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WidgetApplier/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "WidgetApplier/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	ready := metav1ac.Condition().
		WithType(v1.WidgetReady).
		WithStatus(metav1.ConditionTrue).
		WithReason("Applied").
		WithObservedGeneration(obj.Generation)
	raw, err := json.Marshal(map[string]any{
		"apiVersion": "example.com/v1",
		"kind":       "Widget",
		"metadata":   map[string]any{"name": obj.Name, "namespace": obj.Namespace},
		"status":     map[string]any{"conditions": []any{ready}},
	})
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Status().Patch(ctx, &obj, client.RawPatch(types.ApplyPatchType, raw), client.FieldOwner("widget-applier"), client.ForceOwnership); err != nil { // want "WidgetApplier/write-always"
		return ctrl.Result{}, err // want "WidgetApplier/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the applier for Widgets.
func (r *WidgetApplier) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
