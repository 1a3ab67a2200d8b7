// Package controller holds a reconciler whose pass ends early, with no
// failure, when a predicate of its own finds the live Secret equal to
// the ConfigMap it mirrors: an unchanged object's pass may end there, so
// the Secret's update after it is not settled as made on every pass. The
// ConfigMap's stamp is made in a deferred call as well as after the
// update: every pass makes it, whether or not it ends early.
package controller

import (
	"context"
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types"

// recheck is how long an unchanged pair waits for its next pass.
const recheck = time.Hour // want "trace:constant"

// MirrorReconciler copies a ConfigMap's data into the Secret of the same
// name.
type MirrorReconciler struct {
	client.Client
}

// Reconcile updates the Secret when it differs from the ConfigMap.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	defer r.stamp(ctx, &cm)
	var secret corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !differs(&cm, &secret) { // want "drift:compare"
		return ctrl.Result{RequeueAfter: recheck}, nil
	}
	secret.StringData = maps.Clone(cm.Data)
	if err := r.Update(ctx, &secret); err != nil { // want "write-unsettled" "drift:apply"
		return ctrl.Result{}, err
	}
	if err := r.stamp(ctx, &cm); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{RequeueAfter: recheck}, nil // want "requeue-success" "trace:return"
}

// differs reports whether the Secret's data is not the ConfigMap's.
func differs(cm *corev1.ConfigMap, secret *corev1.Secret) bool {
	if len(cm.Data) != len(secret.Data) {
		return true
	}
	for k, v := range cm.Data {
		if string(secret.Data[k]) != v {
			return true
		}
	}
	return false
}

// stamp marks the ConfigMap as mirrored.
func (r *MirrorReconciler) stamp(ctx context.Context, cm *corev1.ConfigMap) error {
	before := client.MergeFrom(cm.DeepCopy())
	cm.Annotations = map[string]string{"example.com/mirrored": "true"}
	return r.Patch(ctx, cm, before) // want "write-always"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
