// Package controller starts its controllers through the engine, handing
// it functional options that carry each reconciler: a slice of them
// spread into the call, one handed on its own, one whose reconciler a
// library wraps; the starter is an interface the call graph resolves.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"example.com/fixtures/optengine/engine"
	"example.com/fixtures/wraplib/limit"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"
// (The Widget's Ready, written into its map, is no typed condition: its
// row is "not settled", which TestStartedByOptions checks.)

// Starter starts a controller.
type Starter interface {
	Start(name string, o ...engine.ControllerOption) error
}

// SecretReconciler labels Secrets.
type SecretReconciler struct {
	client.Client
}

// Reconcile labels one Secret.
func (r *SecretReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "SecretReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "SecretReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	s.Labels = map[string]string{"example.com/seen": "yes"}
	if err := r.Update(ctx, &s); err != nil { // want "SecretReconciler/write-always"
		return reconcile.Result{}, err // want "SecretReconciler/requeue-error"
	}
	return reconcile.Result{}, nil
}

// ConfigMapReconciler labels ConfigMaps.
type ConfigMapReconciler struct {
	client.Client
}

// Reconcile labels one ConfigMap.
func (r *ConfigMapReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "ConfigMapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ConfigMapReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	cm.Labels = map[string]string{"example.com/seen": "yes"}
	if err := r.Update(ctx, &cm); err != nil { // want "ConfigMapReconciler/write-always"
		return reconcile.Result{}, err // want "ConfigMapReconciler/requeue-error"
	}
	return reconcile.Result{}, nil
}

// Widget is an object whose content is an unstructured map, its kind set
// when the program runs.
type Widget struct {
	unstructured.Unstructured
}

// SetReady writes a Ready condition into the map.
func (w *Widget) SetReady() {
	_ = unstructured.SetNestedSlice(w.Object, []any{map[string]any{"type": "Ready", "status": "True"}}, "status", "conditions")
}

// WidgetReconciler marks Widgets ready.
type WidgetReconciler struct {
	client.Client
}

// Reconcile marks one Widget ready.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) { // want "WidgetReconciler/reconcile-entry"
	w := &Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil { // want "WidgetReconciler/reread"
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	w.SetReady()
	if err := r.Status().Update(ctx, w); err != nil { // want "WidgetReconciler/write-always"
		return reconcile.Result{}, err // want "WidgetReconciler/requeue-error"
	}
	return reconcile.Result{}, nil
}

// StartAll starts the three controllers.
func StartAll(s Starter, c client.Client) error {
	secrets := controller.Options{}
	secrets.Reconciler = &SecretReconciler{Client: c}
	opts := []engine.ControllerOption{engine.WithRuntimeOptions(secrets)}
	if err := s.Start("secrets", opts...); err != nil {
		return err
	}
	if err := s.Start("configmaps", engine.WithRuntimeOptions(controller.Options{Reconciler: &ConfigMapReconciler{Client: c}})); err != nil {
		return err
	}
	widgets := controller.Options{MaxConcurrentReconciles: 2}
	widgets.Reconciler = limit.New("widgets", &WidgetReconciler{Client: c})
	return s.Start("widgets", engine.WithRuntimeOptions(widgets))
}

// Run starts them with the engine.
func Run(c client.Client) error {
	return StartAll(&engine.Engine{}, c)
}
