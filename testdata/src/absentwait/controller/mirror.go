// Package controller holds a reconciler that waits, with a nil error, for
// a Secret another party creates: where its read finds the Secret absent,
// the pass asks to come back in a few seconds. That wait is on something
// else than the object, not a retry after a failure, and the steady state
// is event-driven, so it is the requeue a success makes.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/drift"

// MirrorReconciler copies the keys of the Secret a ConfigMap names into
// the ConfigMap's annotations.
type MirrorReconciler struct {
	client.Client
}

// Reconcile waits for the Secret, then mirrors its keys.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Name + "-source"}, secret); err != nil {
		if apierrors.IsNotFound(err) {
			return ctrl.Result{RequeueAfter: 5 * time.Second}, nil // want "MirrorReconciler/requeue-success" "MirrorReconciler/trace:return" "MirrorReconciler/trace:constant"
		}
		return ctrl.Result{}, err
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	for k := range secret.Data {
		cm.Annotations["mirror.example.com/"+k] = "present"
	}
	if err := r.Update(ctx, cm); err != nil { // want "MirrorReconciler/write-always" "MirrorReconciler/hot-loop"
		return ctrl.Result{}, err // want "MirrorReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
