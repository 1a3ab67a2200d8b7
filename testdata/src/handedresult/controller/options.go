package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "OptionReconciler/finalizer-const" "OptionReconciler/finalizer-add" "OptionReconciler/finalizer-cleanup" "OptionReconciler/finalizer-remove" "OptionReconciler/condition-types" "OptionReconciler/drift"
// want-none "OptionReconciler/requeue-success" "OptionReconciler/interval-trace"

// statusOption is one part of a status update: a message, and the result
// the pass hands back for it.
type statusOption interface {
	apply(pod *corev1.Pod)
	result() ctrl.Result
}

// noteOption writes a note and asks for nothing.
type noteOption struct{ note string }

func (o noteOption) apply(pod *corev1.Pod) { pod.Annotations["note"] = o.note }
func (o noteOption) result() ctrl.Result   { return ctrl.Result{} }

// pendingOption marks the Pod pending and asks to look again later.
type pendingOption struct{ after time.Duration }

func (o pendingOption) apply(pod *corev1.Pod) { pod.Annotations["pending"] = "true" }
func (o pendingOption) result() ctrl.Result {
	return ctrl.Result{RequeueAfter: o.after}
}

// OptionReconciler hands every outcome to one status helper, with options
// that carry the result: the helper's return hands back what its callers'
// options say, through an interface with several implementations.
type OptionReconciler struct {
	client.Client
}

// Reconcile notes a Pod, or waits while it is not scheduled.
func (r *OptionReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OptionReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "OptionReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Spec.NodeName == "" {
		return r.update(ctx, &pod, noteOption{"unscheduled"}, pendingOption{10 * time.Second})
	}
	return r.update(ctx, &pod, noteOption{"scheduled"})
}

// update applies the options, saves the Pod and hands back the first
// result that asks for a requeue.
func (r *OptionReconciler) update(ctx context.Context, pod *corev1.Pod, opts ...statusOption) (ctrl.Result, error) {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	for _, o := range opts {
		o.apply(pod)
	}
	if err := r.Update(ctx, pod); err != nil { // want "OptionReconciler/write-always"
		return ctrl.Result{}, err // want "OptionReconciler/requeue-error"
	}
	for _, o := range opts {
		res := o.result()
		if res.RequeueAfter > 0 {
			return res, nil
		}
	}
	return ctrl.Result{}, nil
}

// SetupOptions registers the reconciler for Pods.
func SetupOptions(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("options").For(&corev1.Pod{}).Complete(&OptionReconciler{Client: mgr.GetClient()})
}
