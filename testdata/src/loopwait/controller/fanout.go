// Package controller holds reconcilers that wait with a nil error in
// several places, where the success requeue is the wait after work that
// succeeded on the live path. FanoutReconciler waits before any work, on
// a Secret it reads, and inside the loop that writes its children, after
// a child's write (the write in the loop body, the wait in an if below
// it). DrainReconciler waits after a write on its deletion branch too,
// which is not the success path's.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "FanoutReconciler/finalizer-const" "FanoutReconciler/finalizer-add" "FanoutReconciler/finalizer-cleanup" "FanoutReconciler/finalizer-remove" "FanoutReconciler/condition-types" "FanoutReconciler/drift"

// FanoutReconciler copies a ConfigMap into one ConfigMap per listed
// suffix, once the Secret the ConfigMap names exists.
type FanoutReconciler struct {
	client.Client
}

// Reconcile writes the copies, one step at a time.
func (r *FanoutReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "FanoutReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "FanoutReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Data["secret"]}, secret); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{RequeueAfter: 30 * time.Second}, nil
		}
		return ctrl.Result{}, err
	}
	if len(secret.Data) == 0 {
		return ctrl.Result{RequeueAfter: 10 * time.Second}, nil
	}
	for _, suffix := range []string{"a", "b"} {
		done, err := r.step(ctx, cm, suffix)
		if err != nil {
			return ctrl.Result{}, err // want "FanoutReconciler/requeue-error"
		}
		if !done {
			return ctrl.Result{RequeueAfter: time.Second}, nil // want "FanoutReconciler/requeue-success" "FanoutReconciler/trace:return" "FanoutReconciler/trace:constant"
		}
	}
	return ctrl.Result{}, nil
}

// step writes one copy; done is false when it was just created.
func (r *FanoutReconciler) step(ctx context.Context, cm *corev1.ConfigMap, suffix string) (bool, error) {
	copied := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-" + suffix}, Data: cm.Data}
	err := r.Create(ctx, copied) // want "FanoutReconciler/write-always"
	if apierrors.IsAlreadyExists(err) {
		return true, nil
	}
	return false, err
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *FanoutReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
