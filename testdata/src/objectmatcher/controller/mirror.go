package controller

import (
	"context"

	"github.com/cisco-open/k8s-objectmatcher/patch"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/requeue-success" "MirrorReconciler/interval-trace"

// MirrorReconciler copies each Secret's data into a ConfigMap of the same
// name. It asks k8s-objectmatcher for the patch between the live
// ConfigMap and the desired one, and updates only when that patch is not
// empty: the drift comparison is the library's verdict on what the call
// that made it was handed.
type MirrorReconciler struct {
	client.Client
}

// Reconcile mirrors the Secret.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	desired := &corev1.ConfigMap{}
	desired.Namespace, desired.Name = secret.Namespace, secret.Name
	desired.Data = map[string]string{}
	for k, v := range secret.Data {
		desired.Data[k] = string(v)
	}
	return ctrl.Result{}, r.apply(ctx, desired) // want "MirrorReconciler/requeue-error"
}

// apply creates the ConfigMap, or updates the live one when it differs.
func (r *MirrorReconciler) apply(ctx context.Context, desired *corev1.ConfigMap) error {
	current := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(desired), current); err != nil {
		if !apierrors.IsNotFound(err) {
			return err
		}
		if err := patch.DefaultAnnotator.SetLastAppliedAnnotation(desired); err != nil {
			return err
		}
		return r.Create(ctx, desired)
	}
	result, err := patch.DefaultPatchMaker.Calculate(current, desired)
	if err != nil {
		return err
	}
	if !result.IsEmpty() { // want "MirrorReconciler/drift:compare"
		if err := patch.DefaultAnnotator.SetLastAppliedAnnotation(desired); err != nil {
			return err
		}
		desired.ResourceVersion = current.ResourceVersion
		return r.Update(ctx, desired) // want "MirrorReconciler/drift:apply"
	}
	return nil
}

// SetupWithManager registers the reconciler for Secrets.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("mirror").For(&corev1.Secret{}).Complete(r)
}
