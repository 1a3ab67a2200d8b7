package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/statuspatch/api/v1"
)

// SummaryReconciler sends the status patch a helper computes whenever the
// helper hands one back, and returns the helper's error last. The helper
// makes a fresh patch at each of its returns with a nil error, so a pass
// that succeeds always sends it: the test of the patch against nil is
// decided, and the write is every pass's.
type SummaryReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *SummaryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Named("gadget-summary").Complete(r)
}

// Reconcile summarises the Gadget and patches its status.
func (r *SummaryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SummaryReconciler/reconcile-entry"
	patch, sumErr := r.summarise(ctx, req)
	if patch != nil {
		obj := &v1.Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}, Status: *patch}
		if err := r.Status().Patch(ctx, obj, client.Merge); err != nil { // want "SummaryReconciler/write-always"
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, sumErr // want "SummaryReconciler/requeue-error"
} // want-none "SummaryReconciler/finalizer-const" "SummaryReconciler/finalizer-add" "SummaryReconciler/finalizer-cleanup" "SummaryReconciler/finalizer-remove" "SummaryReconciler/requeue-success" "SummaryReconciler/interval-trace" "SummaryReconciler/drift"

// summarise reads the Gadget and hands back its summary as a status patch;
// none when the Gadget is gone.
func (r *SummaryReconciler) summarise(ctx context.Context, req ctrl.Request) (*v1.GadgetStatus, error) {
	var g v1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "SummaryReconciler/reread"
		return nil, client.IgnoreNotFound(err)
	}
	if g.Spec.Size > 0 {
		sized := &v1.GadgetStatus{}
		setCondition(&sized.Conditions, metav1.Condition{Type: v1.GadgetReady, Status: metav1.ConditionTrue, Reason: "Sized"}) // want "SummaryReconciler/condition-set:Ready"
		return sized, nil
	}
	empty := &v1.GadgetStatus{}
	setCondition(&empty.Conditions, metav1.Condition{Type: v1.GadgetStalled, Status: metav1.ConditionTrue, Reason: "NoSize"}) // want "SummaryReconciler/condition-set:Stalled"
	return empty, nil
}
