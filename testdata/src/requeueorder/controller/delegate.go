package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// pausedPoll is how often a paused ConfigMap is looked at.
const pausedPoll = 30 * time.Second

// resync is how often a synced ConfigMap is looked at again.
const resync = 10 * time.Minute // want "DelegateReconciler/trace:constant"

// DelegateReconciler marks ConfigMaps synced; the entry handles the paused
// case itself and hands the rest to sync, returning its result.
type DelegateReconciler struct {
	client.Client
}

// Reconcile reads the ConfigMap and delegates.
func (r *DelegateReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DelegateReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "DelegateReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.Annotations["paused"] == "true" {
		return ctrl.Result{RequeueAfter: pausedPoll}, nil // decoy: requeue-success (the entry's own, a special case)
	}
	return r.sync(ctx, cm)
}

// sync marks the ConfigMap and looks again after resync.
func (r *DelegateReconciler) sync(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["synced"] = "true"
	if err := r.Update(ctx, cm); err != nil {
		return ctrl.Result{}, err // want "DelegateReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: resync}, nil // want "DelegateReconciler/requeue-success" "DelegateReconciler/trace:return"
}
