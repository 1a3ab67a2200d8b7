// Package controller holds a reconciler whose Reconcile hands the whole
// pass to a function held in a package variable (so that a test can swap
// it), with named results that a deferred function joins a failure into.
package controller

import (
	"context"
	"errors"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "LabelReconciler/finalizer-const" "LabelReconciler/finalizer-add" "LabelReconciler/finalizer-cleanup" "LabelReconciler/finalizer-remove" "LabelReconciler/condition-types" "LabelReconciler/requeue-success" "LabelReconciler/interval-trace"

// LabelReconciler copies a ConfigMap's team label onto the Secret of the
// same name.
type LabelReconciler struct {
	client.Client
}

// Reconcile hands the pass to handle.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LabelReconciler/reconcile-entry"
	return handle(r, ctx, req)
}

// handle is the pass.
var handle = func(r *LabelReconciler, ctx context.Context, req ctrl.Request) (result ctrl.Result, err error) {
	defer func() {
		if ferr := r.flush(ctx); ferr != nil {
			err = errors.Join(err, ferr)
		}
	}()
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "LabelReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil {
		return ctrl.Result{}, err
	}
	if secret.Labels["team"] == cm.Labels["team"] { // want "LabelReconciler/drift:compare"
		return ctrl.Result{}, nil
	}
	if secret.Labels == nil {
		secret.Labels = map[string]string{}
	}
	secret.Labels["team"] = cm.Labels["team"]
	if err := r.Update(ctx, &secret); err != nil { // want "LabelReconciler/drift:apply"
		return ctrl.Result{}, err // want "LabelReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// flush writes nothing yet; it stands for the work a deferred step does.
func (r *LabelReconciler) flush(ctx context.Context) error {
	return ctx.Err()
}
