// Package controller holds three reconcilers whose success requeue is not
// the last return in the entry: one hands back its delegate's result early,
// one copies the delegate's result field by field, and one waits for an
// old child to finish terminating.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// configResync is how often a ConfigMap is looked at again.
const configResync = 10 * time.Minute // want "EpsilonReconciler/trace:constant"

// EpsilonReconciler labels ConfigMaps.
type EpsilonReconciler struct {
	client.Client
}

// Reconcile hands a ConfigMap it finds to its delegate and returns the
// delegate's result; a missing one ends the reconcile.
func (r *EpsilonReconciler) Reconcile(ctx context.Context, req ctrl.Request) (res ctrl.Result, err error) { // want "EpsilonReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err = r.Get(ctx, req.NamespacedName, cm); err == nil { // want "EpsilonReconciler/reread"
		return r.reconcileConfigMap(ctx, cm)
	}
	if apierrors.IsNotFound(err) {
		log.FromContext(ctx).Info("gone", "name", req.Name)
		return ctrl.Result{}, nil
	}
	return ctrl.Result{}, err
}

// reconcileConfigMap labels the ConfigMap and looks again later.
func (r *EpsilonReconciler) reconcileConfigMap(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["reconciled"] = "true"
	if err := r.Update(ctx, cm); err != nil { // want "EpsilonReconciler/write-always"
		return ctrl.Result{}, err // want "EpsilonReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: configResync}, nil // want "EpsilonReconciler/requeue-success" "EpsilonReconciler/trace:return"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *EpsilonReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
