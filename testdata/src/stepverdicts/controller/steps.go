// Package controller holds a reconciler whose pass is a chain of steps,
// each handing back a verdict (an interface value) that says whether the
// pass ends there. Which implementation a step hands back on a pass of an
// unchanged object is not followed, so the write after the steps is made
// on every pass only if their verdicts let the pass go on: not settled,
// rather than "never on every pass".
package controller

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "LedgerReconciler/finalizer-const" "LedgerReconciler/finalizer-add" "LedgerReconciler/finalizer-cleanup" "LedgerReconciler/finalizer-remove" "LedgerReconciler/condition-types" "LedgerReconciler/requeue-success" "LedgerReconciler/interval-trace" "LedgerReconciler/drift"

// verdict is what a step decides: whether the pass ends, and with what
// error.
type verdict interface {
	Done() bool
	Err() error
}

// goOn lets the pass go on.
type goOn struct{}

func (goOn) Done() bool { return false }
func (goOn) Err() error { return nil }

// stop ends the pass, failed when err is set.
type stop struct{ err error }

func (s stop) Done() bool { return true }
func (s stop) Err() error { return s.err }

// LedgerReconciler runs its steps over each Service and then marks the
// Service as seen.
type LedgerReconciler struct {
	client.Client
}

// Reconcile reads the Service and runs the steps.
func (r *LedgerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LedgerReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "LedgerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.steps(ctx, svc); err != nil {
		return ctrl.Result{}, err // want "LedgerReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// steps runs each step, ending where one says so, then marks the Service.
func (r *LedgerReconciler) steps(ctx context.Context, svc *corev1.Service) error {
	if v := r.ports(svc); v.Done() {
		return v.Err()
	}
	if v := r.endpoints(ctx, svc); v.Done() {
		return v.Err()
	}
	if svc.Labels == nil {
		svc.Labels = map[string]string{}
	}
	svc.Labels["ledger.example.com/seen"] = "true"
	return r.Update(ctx, svc) // want "LedgerReconciler/write-unsettled"
}

// ports ends the pass of a Service with no ports.
func (r *LedgerReconciler) ports(svc *corev1.Service) verdict {
	if len(svc.Spec.Ports) == 0 {
		return stop{}
	}
	return goOn{}
}

// endpoints fails the pass when the Service's endpoints cannot be read.
func (r *LedgerReconciler) endpoints(ctx context.Context, svc *corev1.Service) verdict {
	ep := &corev1.Endpoints{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(svc), ep); err != nil {
		return stop{err: errors.Join(errors.New("read endpoints"), err)}
	}
	return goOn{}
}

// SetupWithManager registers the reconciler for Services.
func (r *LedgerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}
