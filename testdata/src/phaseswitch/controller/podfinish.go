package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PodFinisher/finalizer-const" "PodFinisher/finalizer-add" "PodFinisher/finalizer-cleanup" "PodFinisher/finalizer-remove" "PodFinisher/condition-types"
// want-none "PodFinisher/requeue-success" "PodFinisher/interval-trace"

// PodFinisher looks at a Pod again while it runs, and leaves it once it
// has finished. The wait returns early from the test of the Pod's phase,
// so the code after that test is its other branch, as PodWatcher's switch
// writes it: which return is the steady state the Pod's phase decides.
type PodFinisher struct {
	client.Client
}

// Reconcile labels a Pod with its phase.
func (r *PodFinisher) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PodFinisher/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "PodFinisher/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.Labels["finished"] != string(pod.Status.Phase) { // want "PodFinisher/drift:compare"
		pod.Labels["finished"] = string(pod.Status.Phase)
		if err := r.Update(ctx, &pod); err != nil { // want "PodFinisher/drift:apply"
			return ctrl.Result{}, err // want "PodFinisher/requeue-error"
		}
	}
	if pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed {
		return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}
