// Package controller holds reconcilers whose statements are wrapped in
// function literals or handed to helpers, as refactored code often is:
// each is read as if it stood inline.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"
// want-none "StampReconciler/drift"

// stampAnnotation holds the time of a ConfigMap's last stamp.
const stampAnnotation = "example.com/stamped"

// StampReconciler stamps each ConfigMap, and a copy of it, with the time
// of the pass: both writes differ on every pass.
type StampReconciler struct {
	client.Client
}

// Reconcile stamps one ConfigMap and its copy.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	// A pass that finds the lock of a migration ends before it reads the
	// ConfigMap.
	lock := types.NamespacedName{Namespace: "kube-system", Name: "migration-lock"}
	if err := r.Get(ctx, lock, &corev1.ConfigMap{}); err == nil {
		return ctrl.Result{}, nil
	}
	cm := &corev1.ConfigMap{}
	read := func() error { return r.Get(ctx, req.NamespacedName, cm) } // want "StampReconciler/reread"
	if err := read(); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// The clock is read in a literal called where it stands.
	now := func() string { return time.Now().Format(time.RFC3339) }()
	cp := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-stamp"}, Data: map[string]string{stampAnnotation: now}}
	if err := r.Update(ctx, cp); err != nil { // want "StampReconciler/write-always" "StampReconciler/hot-loop"
		return ctrl.Result{}, err
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[stampAnnotation] = time.Now().Format(time.RFC3339)
	// The write is made in a closure: its payload is what the function
	// that makes it set.
	update := func() error { return r.Update(ctx, cm) } // want "StampReconciler/write-always" "StampReconciler/hot-loop"
	if err := update(); err != nil {
		return ctrl.Result{}, err // want "StampReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}
