package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condhelpers/api/v1"
)

// GadgetReconciler reconciles Gadgets, whose conditions are a struct of
// their own.
type GadgetReconciler struct {
	client.Client
}

// Reconcile marks the Gadget synced and available, then writes its status.
func (r *GadgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "GadgetReconciler/reconcile-entry"
	var g v1.Gadget
	if err := r.Get(ctx, req.NamespacedName, &g); err != nil { // want "GadgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if g.Status == nil {
		g.Status = &v1.GadgetStatus{}
	}
	syncGadget(g.Status)                                                                       // want "GadgetReconciler/condition-set:Synced"
	setGadgetCondition(g.Status, newGadgetCondition(v1.GadgetAvailable, metav1.ConditionTrue)) // want "GadgetReconciler/condition-set:Available"
	if err := r.Status().Update(ctx, &g); err != nil {                                         // want "GadgetReconciler/write-always"
		return ctrl.Result{}, err // want "GadgetReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// syncGadget finds the Synced condition, appending it when it is missing,
// and sets it True.
func syncGadget(st *v1.GadgetStatus) {
	cond := func() *v1.GadgetCondition {
		for i := range st.Conditions {
			if st.Conditions[i].Type == v1.GadgetSynced {
				return &st.Conditions[i]
			}
		}
		st.Conditions = append(st.Conditions, v1.GadgetCondition{Type: v1.GadgetSynced})
		return &st.Conditions[len(st.Conditions)-1]
	}()
	cond.Status = metav1.ConditionTrue
}

// newGadgetCondition builds a Gadget condition.
func newGadgetCondition(t v1.GadgetConditionType, status metav1.ConditionStatus) v1.GadgetCondition {
	return v1.GadgetCondition{Type: t, ConditionState: v1.ConditionState{Status: status}}
}

// setGadgetCondition puts c into the status.
func setGadgetCondition(st *v1.GadgetStatus, c v1.GadgetCondition) {
	st.Conditions = append(st.Conditions, c)
}

// SetupWithManager registers the reconciler for Gadgets.
func (r *GadgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Gadget{}).Complete(r)
}
