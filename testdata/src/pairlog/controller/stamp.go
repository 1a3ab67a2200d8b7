// Package controller holds a reconciler whose entry hands back the pair
// its helper made after a test of the error that only logs it: that
// return hands back the helper's failures too. The entry fails on its own
// as well (the re-read), and no success requeues, so that return, where
// the main work's error goes back to the controller, is the requeue on
// error: not the entry's failure before the call, nor one inside the
// helper.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// StampReconciler stamps each ConfigMap with the label its owner wants.
type StampReconciler struct {
	client.Client
}

// Reconcile reads the ConfigMap, lets stamp do the work, logs a failure
// and hands stamp's result and error back as they are.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := r.stamp(ctx, cm)
	if err != nil {
		log.FromContext(ctx).Error(err, "stamp failed", "configmap", req.NamespacedName)
	}
	return res, err // want "requeue-error"
}

// stamp sets the label when it differs from the one the annotation asks
// for.
func (r *StampReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	want := cm.Annotations["stamp.example.com/want"]
	if cm.Labels["stamp.example.com/stamp"] == want { // want "drift:compare"
		return ctrl.Result{}, nil
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["stamp.example.com/stamp"] = want
	if err := r.Update(ctx, cm); err != nil { // want "drift:apply"
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
