package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// rotation is how often a Secret is looked at again.
const rotation = time.Hour // want "InvertedReconciler/trace:constant"

// InvertedReconciler watches Secrets and the Pods beside them, testing
// each error the other way round: the success path is the branch where the error is nil, the
// failure its else.
type InvertedReconciler struct {
	client.Client
}

// Reconcile reads the Secret and hands it to rotate.
func (r *InvertedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "InvertedReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err == nil { // want "InvertedReconciler/reread"
		return r.rotate(ctx, &s)
	} else {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
}

// rotate lists the Pods beside the Secret and looks again after rotation.
func (r *InvertedReconciler) rotate(ctx context.Context, s *corev1.Secret) (ctrl.Result, error) {
	if s.Type == "" {
		return ctrl.Result{}, fmt.Errorf("secret %s has no type", s.Name) // decoy: requeue-error (an earlier check, not the work's)
	}
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(s.Namespace)); err == nil {
		return ctrl.Result{RequeueAfter: rotation}, nil // want "InvertedReconciler/requeue-success" "InvertedReconciler/trace:return"
	} else {
		return ctrl.Result{}, err // want "InvertedReconciler/requeue-error"
	}
}
