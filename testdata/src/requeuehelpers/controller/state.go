// Package controller holds reconcilers whose requeues are made in helpers:
// one dispatches on its object's state, and only its terminal state waits
// on a timer; one builds every result with one helper, reached first from a
// failure; one runs phases and hands a phase's result back as it is.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// expiry is how long a finished ConfigMap is kept.
const expiry = time.Hour // want "StateReconciler/trace:constant"

// StateReconciler moves ConfigMaps through the states in their data.
type StateReconciler struct {
	client.Client
}

// Reconcile dispatches on the ConfigMap's state.
func (r *StateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StateReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "StateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch cm.Data["state"] {
	case "retrying":
		return r.retry(ctx, cm)
	case "done":
		return r.finished(ctx, cm)
	}
	return ctrl.Result{}, nil
}

// retry tries again once the backoff in the ConfigMap has passed: a wait,
// stored into the result in a closure.
func (r *StateReconciler) retry(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	var result ctrl.Result
	err := func() error {
		left, err := time.ParseDuration(cm.Data["backoff"])
		if err != nil {
			return err
		}
		if left > 0 {
			result.RequeueAfter = left // decoy: requeue-success (a wait on the backoff)
			return nil
		}
		cm.Data["state"] = "running"
		return r.Update(ctx, cm)
	}()
	if err != nil {
		return ctrl.Result{}, err
	}
	return result, nil
}

// finished deletes the ConfigMap once it has expired, and looks again when
// it will have.
func (r *StateReconciler) finished(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	cm.Data["seen"] = "true"
	if err := r.Update(ctx, cm); err != nil {
		return ctrl.Result{}, err // want "StateReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: expiry}, nil // want "StateReconciler/requeue-success" "StateReconciler/trace:return"
}
