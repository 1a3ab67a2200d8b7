package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// want-none "HolderReconciler/finalizer-const" "HolderReconciler/finalizer-add" "HolderReconciler/finalizer-cleanup" "HolderReconciler/finalizer-remove" "HolderReconciler/condition-types" "HolderReconciler/requeue-success" "HolderReconciler/interval-trace" "HolderReconciler/drift"

// statusHolder keeps a copy of a status shared between kinds, marks
// conditions on the copy and hands it back through a callback.
type statusHolder struct {
	s      v1.SharedStatus
	update func(v1.SharedStatus)
}

// markReady appends Ready to the copy and hands it back.
func (h *statusHolder) markReady() {
	h.s.Conditions = append(h.s.Conditions, metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Held"})
	h.update(h.s)
}

// HolderReconciler sets a Doohickey's conditions through a holder of a
// copy of its status, which a callback copies back: a condition the flow
// does not tie to the Doohickey, so its types are not settled.
type HolderReconciler struct {
	client.Client
}

// Reconcile marks the Doohickey ready through the holder and writes its
// status.
func (r *HolderReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HolderReconciler/reconcile-entry"
	var obj v1.Doohickey
	if err := r.Get(ctx, req.NamespacedName, &obj); err != nil { // want "HolderReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	h := &statusHolder{s: obj.Status.SharedStatus, update: func(st v1.SharedStatus) { obj.Status.SharedStatus = st }}
	h.markReady()
	if err := r.Status().Update(ctx, &obj); err != nil { // want "HolderReconciler/write-always"
		return ctrl.Result{}, err // want "HolderReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Doohickeys.
func (r *HolderReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Doohickey{}).Complete(r)
}
