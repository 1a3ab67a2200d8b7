// Package controller holds a reconciler that sets conditions both on the
// Fleet and on the entries its status keeps for members, through methods
// of the status: one hands back a member's entry (whose conditions are
// not the Fleet's), the other the Fleet's own conditions.
package controller

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/condentries/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// FleetReconciler reconciles Fleets.
type FleetReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for Fleets.
func (r *FleetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Fleet{}).Complete(r)
}

// Reconcile marks each member draining in its entry, then the Fleet
// synced and ready.
func (r *FleetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var fleet v1.Fleet
	if err := r.Get(ctx, req.NamespacedName, &fleet); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for _, name := range fleet.Spec.Members {
		entry := fleet.Status.Member(name)
		entry.Conditions.Set(v1.Condition{Type: v1.MemberJoined, Status: metav1.ConditionTrue})
		markDraining(fleet.Status.Member(name))
	}
	status := &fleet.Status
	status.Member("first").Conditions.Set(v1.Condition{Type: v1.MemberPinned, Status: metav1.ConditionTrue})
	for _, m := range fleet.Status.Members {
		m.Conditions.Set(v1.Condition{Type: v1.MemberSeen, Status: metav1.ConditionTrue})
	}
	if len(fleet.Status.Members) > 0 {
		fleet.Status.Members[0].Conditions.Set(v1.Condition{Type: v1.MemberFirst, Status: metav1.ConditionTrue})
	}
	for _, m := range status.Entries() {
		m.Conditions.Set(v1.Condition{Type: v1.MemberLagging, Status: metav1.ConditionFalse})
	}
	fleet.Status.Own().Set(v1.Condition{Type: v1.FleetSynced, Status: metav1.ConditionTrue})     // want "condition-set:Synced"
	fleet.Status.Conditions.Set(v1.Condition{Type: v1.FleetReady, Status: metav1.ConditionTrue}) // want "condition-set:Ready"
	return ctrl.Result{}, r.Status().Update(ctx, &fleet)                                         // want "requeue-error" "write-always"
}

// markDraining marks a member's entry draining.
func markDraining(m *v1.MemberStatus) {
	m.Conditions.Set(v1.Condition{Type: v1.MemberDraining, Status: metav1.ConditionTrue, Reason: "Scaling"})
}
