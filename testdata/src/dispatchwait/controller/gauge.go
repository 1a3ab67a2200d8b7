// Package controller holds reconcilers whose status helper hands back the
// result one of the options it is handed makes: which option's result the
// pass gets, and so whether its success requeues, the options the caller
// builds decide, one of several functions of the tree behind one
// interface method. The requeue on success is not settled, however the
// wait is written, and a wait after creating a child is not the answer.
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

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift" "requeue-success" "interval-trace"

// statusOption changes what a status write records and may ask for a
// requeue.
type statusOption interface {
	result() ctrl.Result
}

// stateOption records a state; a pending one asks to be looked at soon,
// any other after the period it carries.
type stateOption struct {
	state  string
	period time.Duration
}

func (o stateOption) result() ctrl.Result {
	if o.state == "Pending" {
		return ctrl.Result{RequeueAfter: time.Second}
	}
	return ctrl.Result{RequeueAfter: o.period}
}

// messageOption records a message and asks for nothing.
type messageOption struct {
	message string
}

func (o messageOption) result() ctrl.Result {
	return ctrl.Result{}
}

// GaugeReconciler creates a child Secret for each ConfigMap, waits a
// little after creating it, then records the ConfigMap's state through
// the status helper.
type GaugeReconciler struct {
	client.Client
	Period time.Duration
}

// Reconcile makes the child, then writes the status.
func (r *GaugeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var child corev1.Secret
	err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Name}, &child)
	if apierrors.IsNotFound(err) {
		child = corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: cm.Name, Namespace: cm.Namespace}}
		if err := r.Create(ctx, &child); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil // decoy: requeue-success (a wait after creating the child; the steady pass's result the options make)
	}
	if err != nil {
		return ctrl.Result{}, err
	}
	return r.writeStatus(ctx, &cm, stateOption{state: cm.Labels["state"], period: r.Period}, messageOption{})
}

// writeStatus writes the ConfigMap and hands back the first result an
// option asks for.
func (r *GaugeReconciler) writeStatus(ctx context.Context, cm *corev1.ConfigMap, opts ...statusOption) (ctrl.Result, error) {
	if err := r.Update(ctx, cm); err != nil { // want "write-always"
		return ctrl.Result{}, err // want "requeue-error"
	}
	for _, o := range opts {
		res := o.result()
		if res.RequeueAfter > 0 {
			return res, nil
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *GaugeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
