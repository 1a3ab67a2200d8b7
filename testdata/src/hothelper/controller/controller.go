// Package controller holds two reconcilers whose every-pass write is made
// by a helper that only sends the object its caller built. One fills the
// object from a map it ranges over (its order differs on every pass: a
// hot-loop risk); the other reads the clock only to time its pass, which
// never reaches the object it writes.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift" "requeue-success" "interval-trace"

// StampReconciler lists a ConfigMap's labels in an annotation.
type StampReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile lists the labels, in the order the map gives them.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "StampReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	listed := ""
	for k := range cm.Labels {
		listed += k + ","
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["example.com/labels"] = listed
	return ctrl.Result{}, r.save(ctx, &cm) // want "StampReconciler/requeue-error"
}

// save writes the ConfigMap its caller built.
func (r *StampReconciler) save(ctx context.Context, cm *corev1.ConfigMap) error {
	return r.Update(ctx, cm) // want "StampReconciler/write-always" "StampReconciler/hot-loop"
}

// TimerReconciler marks a Secret seen and times its pass.
type TimerReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *TimerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// Reconcile marks the Secret; the clock it reads times the pass only.
func (r *TimerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TimerReconciler/reconcile-entry"
	start := time.Now()
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "TimerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	took := time.Since(start)
	observe(secret.Name, took)
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	secret.Labels["example.com/seen"] = "yes"
	return ctrl.Result{}, r.store(ctx, &secret) // want "TimerReconciler/requeue-error"
}

// observe logs how long a pass took.
func observe(name string, took time.Duration) {
	ctrl.Log.Info("reconciled", "name", name, "took", took)
}

// store writes the Secret its caller built.
func (r *TimerReconciler) store(ctx context.Context, secret *corev1.Secret) error {
	return r.Update(ctx, secret) // want "TimerReconciler/write-always"
}
