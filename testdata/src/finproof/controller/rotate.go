package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "RotateReconciler/finalizer-const" "RotateReconciler/finalizer-add" "RotateReconciler/finalizer-cleanup" "RotateReconciler/finalizer-remove"
// want-none "RotateReconciler/condition-types" "RotateReconciler/drift"

// rotateEvery is how long a pod runs before its rotation marker is made.
const rotateEvery = time.Hour // want "RotateReconciler/trace:constant"

// RotateReconciler records a marker for each pod that has run an hour. It
// asks a helper whether the pod is due; a pod that is not only waits for
// the time the helper says is left, so the marker's Create is no write of
// every pass.
type RotateReconciler struct {
	client.Client
}

// Reconcile marks one pod once it is due.
func (r *RotateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RotateReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "RotateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	due, left := r.due(&pod)
	if !due {
		log.FromContext(ctx).Info("not due yet", "left", left)
		return ctrl.Result{RequeueAfter: left}, nil
	}
	marker := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-rotated", Namespace: pod.Namespace}}
	if err := r.Create(ctx, marker); client.IgnoreAlreadyExists(err) != nil {
		return ctrl.Result{}, err // want "RotateReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: rotateEvery}, nil // want "RotateReconciler/requeue-success"
}

// due says whether the pod has run rotateEvery, and if not, how long is
// left: the clock's distance to a time its status records.
func (r *RotateReconciler) due(pod *corev1.Pod) (bool, time.Duration) {
	if pod.Status.StartTime == nil {
		return true, 0
	}
	next := pod.Status.StartTime.Add(rotateEvery)
	if left := time.Until(next); left > 0 {
		return false, left
	}
	return true, 0
}

// SetupWithManager registers the rotator for Pods.
func (r *RotateReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Named("rotator").Complete(r)
}
