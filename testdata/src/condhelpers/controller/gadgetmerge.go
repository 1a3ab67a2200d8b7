package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// GadgetMergeReconciler reconciles Gadgets too: each condition is built by
// a helper, and a variadic helper merges them into the status.
type GadgetMergeReconciler struct {
	client.Client
}

// Reconcile reports the Gadget available and synced, then writes its
// status.
func (r *GadgetMergeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GadgetMergeReconciler/reconcile-entry"
	var g v1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "GadgetMergeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if g.Status == nil {
		g.Status = &v1.GadgetStatus{}
	}
	available := availableCondition(len(g.Finalizers))
	synced := syncedCondition()
	g.Status.Conditions = mergeGadgetConditions(g.Status.Conditions, available, synced) // want "GadgetMergeReconciler/condition-set:Available" "GadgetMergeReconciler/condition-set:Synced"
	if err := r.Status().Update(ctx, &g); err != nil {                                  // want "GadgetMergeReconciler/write-always"
		return ctrl.Result{}, err // want "GadgetMergeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// availableCondition is the Available condition, its status and reason
// set afterwards from a helper that returns both: neither is a type.
func availableCondition(finalizers int) v1.GadgetCondition {
	c := v1.GadgetCondition{Type: v1.GadgetAvailable, ConditionState: v1.ConditionState{Status: metav1.ConditionTrue, Reason: "Counted"}}
	c.Status, c.Reason = availability(finalizers)
	return c
}

// availability is a condition's status and reason.
func availability(finalizers int) (metav1.ConditionStatus, string) {
	if finalizers == 0 {
		return metav1.ConditionFalse, "Unprotected"
	}
	return metav1.ConditionTrue, "Protected"
}

// syncedCondition is the Synced condition.
func syncedCondition() v1.GadgetCondition {
	return v1.GadgetCondition{Type: v1.GadgetSynced, ConditionState: v1.ConditionState{Status: metav1.ConditionTrue, Reason: "Synced"}}
}

// mergeGadgetConditions keeps the conditions of other types than the
// updates', then appends the updates.
func mergeGadgetConditions(conds []v1.GadgetCondition, updates ...v1.GadgetCondition) []v1.GadgetCondition {
	out := make([]v1.GadgetCondition, 0, len(conds)+len(updates))
	for _, c := range conds {
		if !hasGadgetCondition(updates, c.Type) {
			out = append(out, c)
		}
	}
	for _, u := range updates {
		out = append(out, u)
	}
	return out
}

// hasGadgetCondition reports whether conds hold a condition of type t.
func hasGadgetCondition(conds []v1.GadgetCondition, t v1.GadgetConditionType) bool {
	for _, c := range conds {
		if c.Type == t {
			return true
		}
	}
	return false
}

// SetupWithManager registers the reconciler for Gadgets.
func (r *GadgetMergeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Complete(r)
}
