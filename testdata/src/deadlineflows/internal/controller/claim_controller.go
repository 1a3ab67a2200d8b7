// Package controller holds a reconciler that keeps a released Claim for
// as long as its spec says: the requeue waits for the time left to that
// deadline, the release time plus the hold, less the time now.
package controller

import (
	"context"
	"time"

	"k8s.io/utils/clock"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	claimv1 "example.com/fixtures/deadlineflows/api/v1"
)

// want-none "ClaimReconciler/finalizer-const" "ClaimReconciler/finalizer-add" "ClaimReconciler/finalizer-cleanup" "ClaimReconciler/finalizer-remove" "ClaimReconciler/condition-types" "ClaimReconciler/drift"

// ClaimReconciler looks at a released Claim again when its hold ends.
type ClaimReconciler struct {
	client.Client
	// decoy: the clock is asked for the time; it is no operand of the
	// deadline, and no setting of the controller's sets the interval.
	clock clock.PassiveClock
}

// NewClaimReconciler returns a reconciler reading the real clock.
func NewClaimReconciler(c client.Client) *ClaimReconciler {
	return &ClaimReconciler{Client: c, clock: clock.RealClock{}}
}

// Reconcile requeues a released Claim for the rest of its hold.
func (r *ClaimReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ClaimReconciler/reconcile-entry"
	obj := &claimv1.Claim{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "ClaimReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "ClaimReconciler/requeue-error"
	}
	if obj.Status.ReleasedAt.IsZero() {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: holdLeft(obj, r.clock.Now())}, nil // want "ClaimReconciler/requeue-success" "ClaimReconciler/trace:return"
}

// holdLeft is the time from now to the end of the Claim's hold.
func holdLeft(obj *claimv1.Claim, now time.Time) time.Duration {
	hold := time.Duration(obj.Spec.HoldSeconds) * time.Second // want "ClaimReconciler/trace:constant"
	deadline := obj.Status.ReleasedAt.Add(hold)               // want "ClaimReconciler/trace:computed"
	return deadline.Sub(now)
}

// SetupWithManager registers the reconciler for Claims.
func (r *ClaimReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&claimv1.Claim{}).Complete(r)
}
