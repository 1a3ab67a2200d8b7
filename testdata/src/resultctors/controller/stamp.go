// Package controller holds reconcilers whose every return hands back what
// a result constructor makes: the return that calls the constructor is the
// site, the constructor's own return is shared by all of them.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/resultctors/result"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types"

const pollInterval = 5 * time.Minute // want "StampReconciler/trace:constant"

// StampReconciler keeps each ConfigMap's stamp label equal to the one its
// annotation asks for, and looks again every pollInterval.
type StampReconciler struct {
	client.Client
}

// Reconcile reads the ConfigMap, stamps it and polls.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "StampReconciler/reread"
		return result.FailedUnlessGone(ctx, apierrors.IsNotFound(err), err, "configmap", req.NamespacedName)
	}
	if cm.Annotations == nil {
		return result.Failed(ctx, nil, "no annotations") // decoy: requeue-error (its error is nil)
	}
	want := cm.Annotations["stamp.example.com/want"]
	if cm.Labels["stamp.example.com/stamp"] != want { // want "StampReconciler/drift:compare"
		if cm.Labels == nil {
			cm.Labels = map[string]string{}
		}
		cm.Labels["stamp.example.com/stamp"] = want
		if err := r.Update(ctx, cm); err != nil { // want "StampReconciler/drift:apply"
			return result.Failed(ctx, err, "stamping") // want "StampReconciler/requeue-error"
		}
	}
	return result.After(ctx, pollInterval, "stamped") // want "StampReconciler/requeue-success" "StampReconciler/trace:return"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
