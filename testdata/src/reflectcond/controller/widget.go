// Package controller holds two reconcilers whose rows a search of typed
// stores cannot settle. The Widget's condition is set by a function that
// finds the status's Conditions by reflection: where a condition is set is
// not settled, never "none". The ConfigMap's finalizer name is built at run
// time and added by another component; the reconciler removes it, with no
// deletion branch on its path: no finalizer row says there is none, and
// the cleanup is not settled.
package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/reflectcond/api/v1"
	"example.com/fixtures/reflectcond/status"
)

// want-none "requeue-success" "interval-trace" "drift"

// WidgetReconciler marks Widgets ready.
type WidgetReconciler struct {
	client.Client
}

// SetupWithManager registers the reconcilers.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&ReleaseReconciler{Client: r.Client, domain: "example.com"})
}

// Reconcile marks the Widget ready.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WidgetReconciler/reconcile-entry"
	var w v1.Widget
	if err := r.Get(ctx, req.NamespacedName, &w); err != nil { // want "WidgetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	status.MarkReady(&w.Status)
	return ctrl.Result{}, r.Status().Update(ctx, &w) // want "WidgetReconciler/requeue-error" "WidgetReconciler/write-always"
} // want-none "WidgetReconciler/condition-types" "WidgetReconciler/finalizer-const" "WidgetReconciler/finalizer-add" "WidgetReconciler/finalizer-cleanup" "WidgetReconciler/finalizer-remove"

// ReleaseReconciler lets go of the ConfigMaps another component holds.
type ReleaseReconciler struct {
	client.Client
	domain string
}

// Reconcile removes the hold finalizer once the ConfigMap is released.
func (r *ReleaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ReleaseReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ReleaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	hold := fmt.Sprintf("%s/hold", r.domain) // want "ReleaseReconciler/finalizer-const"
	if cm.Data["released"] != "true" {
		return ctrl.Result{}, nil
	}
	if controllerutil.RemoveFinalizer(&cm, hold) { // want "ReleaseReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &cm) // want "ReleaseReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
} // want-none "ReleaseReconciler/condition-types" "ReleaseReconciler/finalizer-add" "ReleaseReconciler/finalizer-cleanup"
