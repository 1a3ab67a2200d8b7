// Package controller holds a reconciler whose pass reads its object in a
// helper that hands the rest of the pass to another function when the
// read succeeds, and whose entry stamps the object with the outcome.
package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove" "StampReconciler/condition-types" "StampReconciler/drift" "StampReconciler/requeue-success" "StampReconciler/interval-trace"

// StampReconciler keeps a ServiceAccount and a Secret beside each
// ConfigMap, and stamps the ConfigMap with whether the pass went through.
type StampReconciler struct {
	client.Client
}

// Reconcile runs the pass and stamps its outcome.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	res, cm, err := r.load(ctx, req)
	return r.stamp(ctx, cm, res, err)
}

// stamp records on the ConfigMap whether the pass went through, and hands
// on the pass's result.
func (r *StampReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap, res ctrl.Result, err error) (ctrl.Result, error) {
	if cm == nil {
		return res, err
	}
	cm.Annotations = map[string]string{"stamped": strconv.FormatBool(err == nil)}
	if uerr := r.Update(ctx, cm); uerr != nil { // want "StampReconciler/write-always"
		return ctrl.Result{}, uerr
	}
	return res, err
}

// load reads the ConfigMap and, when it is there, provisions it.
func (r *StampReconciler) load(ctx context.Context, req ctrl.Request) (ctrl.Result, *corev1.ConfigMap, error) {
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err == nil { // want "StampReconciler/reread"
		return r.provision(ctx, cm)
	} else {
		return ctrl.Result{}, nil, client.IgnoreNotFound(err)
	}
}

// provision makes the ServiceAccount, then hands on to the Secret's step.
func (r *StampReconciler) provision(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, *corev1.ConfigMap, error) {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	if err := r.Create(ctx, sa); client.IgnoreAlreadyExists(err) != nil { // want "StampReconciler/write-always"
		return ctrl.Result{}, cm, err
	}
	return r.secret(ctx, cm)
}

// secret makes the Secret.
func (r *StampReconciler) secret(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, *corev1.ConfigMap, error) {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	if err := r.Create(ctx, s); client.IgnoreAlreadyExists(err) != nil { // want "StampReconciler/write-always"
		return ctrl.Result{}, cm, err // want "StampReconciler/requeue-error"
	}
	return ctrl.Result{}, cm, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("stamp").For(&corev1.ConfigMap{}).Owns(&corev1.ServiceAccount{}).Complete(r)
}
