// Package controller reconciles Widgets with controller-runtime; their
// conditions are set through the kind's condition set, and the finalizer
// is a string literal held in a local.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"knative.dev/pkg/apis"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1 "example.com/fixtures/crknative/api/v1"
)

// want-none "drift"

// childWait is how long a child just created is given.
const childWait = 5 * time.Second // want "trace:constant"

// WidgetReconciler reconciles a Widget.
type WidgetReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, cleans up on deletion and marks the
// conditions.
func (r *WidgetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	w := &v1.Widget{}
	if err := r.Get(ctx, req.NamespacedName, w); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	finalizerName := "widgets.example.com/cleanup" // want "finalizer-const"
	if w.DeletionTimestamp.IsZero() {
		if !controllerutil.ContainsFinalizer(w, finalizerName) {
			controllerutil.AddFinalizer(w, finalizerName) // want "finalizer-add"
			if err := r.Update(ctx, w); err != nil {
				return ctrl.Result{}, err
			}
		}
	} else {
		if err := r.release(ctx, w); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(w, finalizerName) // want "finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, w)
	}
	w.Status.InitializeConditions()
	res, err := r.ensureChild(ctx, w)
	if err != nil {
		return ctrl.Result{}, err
	}
	if res.RequeueAfter > 0 {
		// The child's result, handed back whole where its error is nil.
		return res, nil
	}
	w.Status.MarkDeployed()
	w.Status.SetCondition(v1.WidgetRouted, &apis.Condition{Status: corev1.ConditionTrue})
	if err := r.Status().Update(ctx, w); err != nil { // want "write-always"
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// ensureChild waits for the Widget's child Secret, which another
// controller fills: while it is empty, it looks again a little later.
func (r *WidgetReconciler) ensureChild(ctx context.Context, w *v1.Widget) (ctrl.Result, error) {
	s := &corev1.Secret{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: w.Namespace, Name: w.Name}, s); err != nil {
		return ctrl.Result{}, err
	}
	if len(s.Data) == 0 {
		return ctrl.Result{RequeueAfter: childWait}, nil // want "requeue-success" "trace:return"
	}
	return ctrl.Result{}, nil
}

// release deletes the Widget's child Secret.
func (r *WidgetReconciler) release(ctx context.Context, w *v1.Widget) error { // want "finalizer-cleanup"
	s := &corev1.Secret{}
	s.Namespace, s.Name = w.Namespace, w.Name
	return client.IgnoreNotFound(r.Delete(ctx, s))
}

// SetupWithManager registers the reconciler for Widgets.
func (r *WidgetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&v1.Widget{}).Complete(r)
}
