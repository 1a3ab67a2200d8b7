package controller

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "ForwardReconciler/requeue-success" "ForwardReconciler/interval-trace"

// ForwardReconciler labels Pods in steps; its entry ends by returning the
// results of run whole, so run's failure is the main work's.
type ForwardReconciler struct {
	client.Client
}

// step is one step of a pass.
type step func(ctx context.Context, pod *corev1.Pod) error

// Reconcile reads the Pod, checks its node, and hands the steps to run.
func (r *ForwardReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ForwardReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "ForwardReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var node corev1.Node
	if err := r.Get(ctx, client.ObjectKey{Name: pod.Spec.NodeName}, &node); err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (the entry's last failure before its final return)
	}
	return r.run(ctx, &pod, []step{r.label, r.annotate})
}

// run runs every step and returns their errors joined.
func (r *ForwardReconciler) run(ctx context.Context, pod *corev1.Pod, steps []step) (ctrl.Result, error) {
	var errs []error
	for _, s := range steps {
		if err := s(ctx, pod); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return ctrl.Result{}, errors.Join(errs...) // want "ForwardReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// label labels the Pod.
func (r *ForwardReconciler) label(ctx context.Context, pod *corev1.Pod) error {
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels["seen"] = "true"
	return r.Update(ctx, pod)
}

// annotate checks the Pod has a node.
func (r *ForwardReconciler) annotate(ctx context.Context, pod *corev1.Pod) error {
	if pod.Spec.NodeName == "" {
		return fmt.Errorf("pod %s has no node", pod.Name)
	}
	return nil
}
