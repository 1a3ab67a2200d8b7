// Package controller holds a reconciler that computes its Gadget's
// conditions into a fresh status value, a patch that a helper hands back
// beside the error, and sends that patch for the Gadget.
package controller

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/statuspatch/api/v1"
)

// want-none "GadgetReconciler/requeue-success" "GadgetReconciler/interval-trace" "GadgetReconciler/drift"

// GadgetReconciler reports whether each Gadget has a size.
type GadgetReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Complete(r)
}

// Reconcile evaluates the Gadget and patches its status.
func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GadgetReconciler/reconcile-entry"
	patch, err := r.evaluate(ctx, req)
	if err != nil || patch == nil {
		return ctrl.Result{}, err
	}
	obj := &v1.Gadget{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: req.Name}, Status: *patch}
	return ctrl.Result{}, r.Status().Patch(ctx, obj, client.Merge) // want "GadgetReconciler/requeue-error" "GadgetReconciler/write-always"
} // want-none "GadgetReconciler/finalizer-const" "GadgetReconciler/finalizer-add" "GadgetReconciler/finalizer-cleanup" "GadgetReconciler/finalizer-remove"

// evaluate reads the Gadget and hands back the status patch it computes.
func (r *GadgetReconciler) evaluate(ctx context.Context, req ctrl.Request) (*v1.GadgetStatus, error) {
	var g v1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "GadgetReconciler/reread"
		return nil, client.IgnoreNotFound(err)
	}
	patch := &v1.GadgetStatus{}
	if g.Spec.Size > 0 {
		setCondition(&patch.Conditions, metav1.Condition{Type: v1.GadgetReady, Status: metav1.ConditionTrue, Reason: "Sized"}) // want "GadgetReconciler/condition-set:Ready"
		return patch, nil
	}
	setCondition(&patch.Conditions, metav1.Condition{Type: v1.GadgetStalled, Status: metav1.ConditionTrue, Reason: "NoSize"}) // want "GadgetReconciler/condition-set:Stalled"
	return patch, nil
}

// setCondition stamps a condition and puts it in the list.
func setCondition(list *[]metav1.Condition, c metav1.Condition) {
	c.LastTransitionTime = metav1.Now()
	meta.SetStatusCondition(list, c)
}
