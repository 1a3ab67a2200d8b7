// Package controller holds a reconciler whose deletion is handled by a
// helper run on every pass: it hands back a result only while the object
// is being deleted, after an early return on a live one, and that result
// waits for the drain to finish. The pass hands it back when it is set.
// That wait is the deletion's, not the success path's: the success
// requeue is the wait for the child to become ready.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "drift"

const drainFinalizer = "drain.example.com/pods" // want "finalizer-const"

// DrainReconciler runs one Pod per ConfigMap and drains it on deletion.
type DrainReconciler struct {
	client.Client
}

// Reconcile handles deletion first, then keeps the Pod.
func (r *DrainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if result, err := r.handleDelete(ctx, cm); err != nil {
		return ctrl.Result{}, err
	} else if result != nil {
		return *result, nil
	}
	if controllerutil.AddFinalizer(cm, drainFinalizer) { // want "finalizer-add"
		if err := r.Update(ctx, cm); err != nil {
			return ctrl.Result{}, err
		}
	}
	pod := &corev1.Pod{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Name}, pod); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	if pod.Status.Phase != corev1.PodRunning {
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil // want "requeue-success" "trace:return" "trace:constant"
	}
	return ctrl.Result{}, nil
}

// handleDelete hands back nil for a live object; while it is being
// deleted, the result to return. It tests the deletion itself, so it is
// the function the deletion runs.
func (r *DrainReconciler) handleDelete(ctx context.Context, cm *corev1.ConfigMap) (*ctrl.Result, error) { // want "finalizer-cleanup"
	if cm.DeletionTimestamp.IsZero() {
		return nil, nil
	}
	result, err := r.drain(ctx, cm)
	if err != nil || result != nil {
		return result, err
	}
	controllerutil.RemoveFinalizer(cm, drainFinalizer) // want "finalizer-remove"
	return &ctrl.Result{}, r.Update(ctx, cm)
}

// drain deletes the Pod and waits until it is gone.
func (r *DrainReconciler) drain(ctx context.Context, cm *corev1.ConfigMap) (*ctrl.Result, error) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	if err := r.Delete(ctx, pod); err != nil && !apierrors.IsNotFound(err) {
		return nil, err
	}
	if err := r.Get(ctx, client.ObjectKeyFromObject(pod), pod); err == nil {
		result := ctrl.Result{}
		result.RequeueAfter = 5 * time.Second
		return &result, nil
	}
	return nil, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *DrainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
