package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// outcome gathers the results and errors of a pass's steps.
type outcome struct {
	cur  ctrl.Result
	errs []error
}

// with records a step's result and error.
func (o *outcome) with(res ctrl.Result, err error) *outcome {
	if res.RequeueAfter > 0 && (o.cur.RequeueAfter == 0 || res.RequeueAfter < o.cur.RequeueAfter) {
		o.cur = res
	}
	if err != nil {
		o.errs = append(o.errs, err)
	}
	return o
}

// aggregate is the pass's result and every error it met.
func (o *outcome) aggregate() (ctrl.Result, error) {
	return o.cur, errors.Join(o.errs...)
}

// AggregateReconciler hands back, last, the result and the errors its
// steps gathered: a conflict retried before it is not the main work's
// failure return, which may come back in the aggregate.
type AggregateReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *AggregateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}

// Reconcile labels the Pod and hands back what its steps gathered.
func (r *AggregateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AggregateReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "AggregateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	o := &outcome{}
	o.with(r.label(ctx, &pod))
	err := r.Update(ctx, &pod) // want "AggregateReconciler/write-always"
	if err != nil && apierrors.IsConflict(err) {
		return ctrl.Result{RequeueAfter: time.Second}, nil
	}
	return o.with(ctrl.Result{}, err).aggregate()
} // want-none "AggregateReconciler/condition-types" "AggregateReconciler/finalizer-const" "AggregateReconciler/finalizer-add" "AggregateReconciler/finalizer-cleanup" "AggregateReconciler/finalizer-remove" "AggregateReconciler/requeue-error" "AggregateReconciler/requeue-success" "AggregateReconciler/interval-trace" "AggregateReconciler/drift"

// label sets the Pod's label; a Pod not yet scheduled is looked at again.
func (r *AggregateReconciler) label(_ context.Context, pod *corev1.Pod) (ctrl.Result, error) {
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels["seen"] = "true"
	if pod.Spec.NodeName == "" {
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}
