package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "FunnelReconciler/finalizer-const" "FunnelReconciler/finalizer-add" "FunnelReconciler/finalizer-cleanup" "FunnelReconciler/finalizer-remove" "FunnelReconciler/condition-types" "FunnelReconciler/requeue-success" "FunnelReconciler/interval-trace"
// want-none "DrainReconciler/finalizer-const" "DrainReconciler/finalizer-add" "DrainReconciler/finalizer-cleanup" "DrainReconciler/finalizer-remove" "DrainReconciler/condition-types" "DrainReconciler/requeue-success" "DrainReconciler/interval-trace" "DrainReconciler/drift"

// notYet asks for the object to be looked at again after a while.
type notYet struct{ after time.Duration }

func (e *notYet) Error() string { return "not yet" }

// funnelResult turns what a whole pass hands back, nil or a failure, into
// the reconcile's result: the mapper itself tells failure from success,
// so its own returns are the sites, not its callers'.
func funnelResult(err error) (ctrl.Result, error) {
	if err == nil {
		return ctrl.Result{}, nil
	}
	var later *notYet
	if errors.As(err, &later) {
		return ctrl.Result{RequeueAfter: later.after}, nil
	}
	return ctrl.Result{}, err // want "FunnelReconciler/requeue-error" "DrainReconciler/requeue-error"
}

// FunnelReconciler stamps each Secret, the whole pass's error handed to
// the shared funnelResult.
type FunnelReconciler struct{ client.Client }

// Reconcile hands the pass's error to the mapper.
func (r *FunnelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "FunnelReconciler/reconcile-entry"
	return funnelResult(r.stamp(ctx, req))
}

func (r *FunnelReconciler) stamp(ctx context.Context, req ctrl.Request) error {
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "FunnelReconciler/reread"
		return client.IgnoreNotFound(err)
	}
	if s.Annotations["stamped"] != "" { // want "FunnelReconciler/drift:compare"
		return nil
	}
	if s.Annotations == nil {
		s.Annotations = map[string]string{}
	}
	s.Annotations["stamped"] = "yes"
	return r.Update(ctx, &s) // want "FunnelReconciler/drift:apply"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *FunnelReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("funnel").For(&corev1.Secret{}).Complete(r)
}

// DrainReconciler waits for each Node to be cordoned, through the same
// mapper.
type DrainReconciler struct{ client.Client }

// Reconcile hands the pass's error to the mapper.
func (r *DrainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DrainReconciler/reconcile-entry"
	var n corev1.Node
	if err := r.Get(ctx, req.NamespacedName, &n); err != nil { // want "DrainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return funnelResult(r.check(&n))
}

func (r *DrainReconciler) check(n *corev1.Node) error {
	if !n.Spec.Unschedulable {
		return &notYet{after: time.Minute}
	}
	return nil
}

// SetupWithManager registers the reconciler for Nodes.
func (r *DrainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("drain").For(&corev1.Node{}).Complete(r)
}
