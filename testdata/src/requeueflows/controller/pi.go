package controller

import (
	"context"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PiReconciler/finalizer-const" "PiReconciler/finalizer-add" "PiReconciler/finalizer-cleanup" "PiReconciler/finalizer-remove" "PiReconciler/condition-types" "PiReconciler/drift"
// want-none "PiReconciler/requeue-success" "PiReconciler/interval-trace" "PiReconciler/requeue-error"

// PiReconciler runs its steps on each Node through an interface and
// returns the soonest of the waits they ask for: which step's wait a
// success makes, the steps' results decide, so the requeue on success is
// not settled, never the return that merges them; and as the merged
// result is not followed to where it is made, a failure's retry may come
// back in it: the requeue on error is not settled either.
type PiReconciler struct {
	client.Client
	steps []nodeStep
}

// nodeStep is one step of a pass.
type nodeStep interface {
	Reconcile(ctx context.Context, n *corev1.Node) (ctrl.Result, error)
}

// readiness waits for a Node to be ready.
type readiness struct{}

// Reconcile asks to look again while the Node has no conditions.
func (readiness) Reconcile(_ context.Context, n *corev1.Node) (ctrl.Result, error) {
	if len(n.Status.Conditions) == 0 {
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}

// soonest is the result that comes back first.
func soonest(results ...ctrl.Result) (out ctrl.Result) {
	least := time.Duration(math.MaxInt64)
	for _, r := range results {
		if r.RequeueAfter > 0 && r.RequeueAfter < least {
			least = r.RequeueAfter
			out.RequeueAfter = least
		}
	}
	return
}

// Reconcile runs the steps and merges their results.
func (r *PiReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PiReconciler/reconcile-entry"
	var n corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &n); err != nil { // want "PiReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var results []ctrl.Result
	for _, s := range r.steps {
		res, err := s.Reconcile(ctx, &n)
		if err != nil {
			return ctrl.Result{}, err
		}
		results = append(results, res)
	}
	return soonest(results...), nil
}

// SetupWithManager registers the reconciler for Nodes.
func (r *PiReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.steps = []nodeStep{readiness{}}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Node{}).Named("pi").Complete(r)
}
