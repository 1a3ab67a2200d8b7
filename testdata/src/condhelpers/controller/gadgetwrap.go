package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// GadgetWrapReconciler holds the Gadget in a wrapper of its own, whose
// method sets a condition on the Status the wrapper promotes from the
// object: the object's condition, though the wrapper is not the kind.
// want-none "GadgetWrapReconciler/finalizer-const" "GadgetWrapReconciler/finalizer-add" "GadgetWrapReconciler/finalizer-cleanup" "GadgetWrapReconciler/finalizer-remove"
// want-none "GadgetWrapReconciler/requeue-success" "GadgetWrapReconciler/interval-trace" "GadgetWrapReconciler/drift"
type GadgetWrapReconciler struct {
	client.Client
}

// wrappedGadget is the Gadget with the reconciler's helpers.
type wrappedGadget struct {
	*v1.Gadget
}

// markAvailable sets the Gadget's Available condition.
func (w wrappedGadget) markAvailable() {
	w.Status.Conditions = append(w.Status.Conditions, v1.GadgetCondition{Type: v1.GadgetAvailable, ConditionState: v1.ConditionState{Status: metav1.ConditionTrue}}) // want "GadgetWrapReconciler/condition-set:Available"
}

// Reconcile marks the Gadget available and writes its status.
func (r *GadgetWrapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GadgetWrapReconciler/reconcile-entry"
	w := wrappedGadget{&v1.Gadget{}}
	if err := r.Get(ctx, req.NamespacedName, w.Gadget); err != nil { // want "GadgetWrapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if w.Status == nil {
		w.Status = &v1.GadgetStatus{}
	}
	w.markAvailable()
	return ctrl.Result{}, r.Status().Update(ctx, w.Gadget) // want "GadgetWrapReconciler/requeue-error" "GadgetWrapReconciler/write-always"
}

// SetupWithManager registers the reconciler for Gadgets.
func (r *GadgetWrapReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Named("gadgetwrap").Complete(r)
}
