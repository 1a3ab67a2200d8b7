package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// waitError asks for the key to come back after d: the tree makes it both
// when a dependency is not ready yet and after a failure it retries.
type waitError struct {
	d      time.Duration
	reason string
}

func (e *waitError) Error() string { return e.reason }

// SignalReconciler returns only an error; toResult turns it into the
// result. A waitError's interval comes back with a nil error, whether the
// pass waits for the pod to be ready or retries a failed label update:
// the return that hands it back does not tell which.
//
// want-none "SignalReconciler/requeue-success" "SignalReconciler/interval-trace"
// want-none "SignalReconciler/finalizer-const" "SignalReconciler/finalizer-add" "SignalReconciler/finalizer-cleanup" "SignalReconciler/finalizer-remove"
// want-none "SignalReconciler/condition-types"
type SignalReconciler struct {
	client.Client
}

// Reconcile hands the pass's error to toResult.
func (r *SignalReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SignalReconciler/reconcile-entry"
	return toResult(r.reconcile(ctx, req))
}

func (r *SignalReconciler) reconcile(ctx context.Context, req ctrl.Request) error {
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil { // want "SignalReconciler/reread"
		return client.IgnoreNotFound(err)
	}
	if pod.Status.Phase != corev1.PodRunning {
		return &waitError{d: 10 * time.Second, reason: "pod not running"}
	}
	if pod.Labels["seen"] == "" { // want "SignalReconciler/drift:compare"
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels["seen"] = "true"
		if err := r.Update(ctx, pod); err != nil { // want "SignalReconciler/drift:apply"
			return &waitError{d: time.Second, reason: err.Error()}
		}
	}
	return nil
}

// toResult turns the pass's error into its result.
func toResult(err error) (ctrl.Result, error) {
	if err == nil {
		return ctrl.Result{}, nil
	}
	var wait *waitError
	if errors.As(err, &wait) {
		return ctrl.Result{RequeueAfter: wait.d}, nil
	}
	return ctrl.Result{}, err // want "SignalReconciler/requeue-error"
}

// SetupSignal registers SignalReconciler for Pods.
func SetupSignal(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(&SignalReconciler{Client: mgr.GetClient()})
}
