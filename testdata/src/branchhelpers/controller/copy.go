// Package controller holds reconcilers whose branches were moved into
// helpers that the branch returns through: the branch that ends a pass in
// sync, and the branch that applies a difference in one of two ways.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "CopyReconciler/finalizer-const" "CopyReconciler/finalizer-add" "CopyReconciler/finalizer-cleanup" "CopyReconciler/finalizer-remove" "CopyReconciler/condition-types"

// CopyReconciler keeps a ConfigMap beside each Secret, marked with the
// Secret's version, and looks again every hour.
type CopyReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile brings the copy up to the Secret.
func (r *CopyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CopyReconciler/reconcile-entry"
	s := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, s); err != nil { // want "CopyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	cp := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cp); err != nil {
		return ctrl.Result{}, err
	}
	if cp.Annotations["from"] == s.ResourceVersion { // want "CopyReconciler/drift:compare"
		return r.settled(s)
	}
	cp.Annotations = map[string]string{"from": s.ResourceVersion}
	if s.Type == corev1.SecretTypeOpaque {
		return r.refresh(ctx, cp, s) // want "CopyReconciler/drift:apply"
	}
	return ctrl.Result{}, nil
}

// settled records a pass that found the copy in sync.
func (r *CopyReconciler) settled(s *corev1.Secret) (ctrl.Result, error) {
	r.Recorder.Event(s, corev1.EventTypeNormal, "Settled", "the copy is in sync")
	return ctrl.Result{RequeueAfter: time.Hour}, nil // want "CopyReconciler/requeue-success" "CopyReconciler/trace:return" "CopyReconciler/trace:constant"
}

// refresh writes the copy, whole or by its data alone.
func (r *CopyReconciler) refresh(ctx context.Context, cp *corev1.ConfigMap, s *corev1.Secret) (ctrl.Result, error) {
	var err error
	if len(s.Data) == 0 {
		err = r.Update(ctx, cp) // want "CopyReconciler/drift:apply"
	} else {
		err = r.Patch(ctx, cp, client.Merge) // want "CopyReconciler/drift:apply"
	}
	return ctrl.Result{}, err // want "CopyReconciler/requeue-error"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *CopyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
