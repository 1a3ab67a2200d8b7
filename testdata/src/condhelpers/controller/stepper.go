package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// want-none "WidgetStepper/finalizer-const" "WidgetStepper/finalizer-add" "WidgetStepper/finalizer-cleanup" "WidgetStepper/finalizer-remove"
// want-none "WidgetStepper/condition-types" "WidgetStepper/requeue-success" "WidgetStepper/interval-trace" "WidgetStepper/drift"

// WidgetStep is one step of a Widget's pass.
type WidgetStep func(ctx context.Context, w *v1.Widget) error

// WidgetStepper runs the steps it is built with, in order, on a Widget,
// then saves its status. Where the steps come from (a main package, say)
// is not in this tree: what they do to the Widget is not read, so the
// conditions they may set are not settled, never none.
type WidgetStepper struct {
	client.Client
	steps []WidgetStep
}

// NewWidgetStepper builds a stepper of the given steps.
func NewWidgetStepper(c client.Client, steps ...WidgetStep) *WidgetStepper {
	return &WidgetStepper{Client: c, steps: steps}
}

// MarkReady is a step a caller may hand the stepper.
func MarkReady(_ context.Context, w *v1.Widget) error {
	meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: v1.WidgetReady, Status: metav1.ConditionTrue, Reason: "Stepped"})
	return nil
}

// Reconcile runs the steps.
func (r *WidgetStepper) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WidgetStepper/reconcile-entry"
	var obj v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "WidgetStepper/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, step := range r.steps {
		if err := step(ctx, &obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	if err := r.Status().Update(ctx, &obj); err != nil { // want "WidgetStepper/write-always"
		return ctrl.Result{}, err // want "WidgetStepper/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the stepper for Widgets.
func (r *WidgetStepper) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("stepper").For(&v1.Widget{}).Complete(r)
}
