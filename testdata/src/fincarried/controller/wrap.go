package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// wrapFinalizer holds a ConfigMap until its copy is gone.
const wrapFinalizer = "fincarried.example.com/wrap" // want "WrapReconciler/finalizer-const"

// WrapReconciler's deletion branch hands all of its work to finish, which
// only wraps one call (dropCopy) around the finalizer's removal: finish may
// be the branch's body moved into a function (the cleanup then dropCopy,
// as it is when written in the branch) or a cleanup the branch delegates
// to. The code does not say which.
type WrapReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *WrapReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile adds the finalizer, or on deletion runs finish.
func (r *WrapReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "WrapReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "WrapReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		// want-none "WrapReconciler/finalizer-cleanup"
		return r.finish(ctx, &cm)
	}
	if controllerutil.AddFinalizer(&cm, wrapFinalizer) { // want "WrapReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &cm) // want "WrapReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// finish drops the copy, then the finalizer.
func (r *WrapReconciler) finish(ctx context.Context, cm *corev1.ConfigMap) (ctrl.Result, error) {
	if err := r.dropCopy(ctx, cm); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(cm, wrapFinalizer) // want "WrapReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, cm)
}

// dropCopy deletes the ConfigMap's copy.
func (r *WrapReconciler) dropCopy(ctx context.Context, cm *corev1.ConfigMap) error {
	cp := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-copy", Namespace: cm.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, cp))
}
