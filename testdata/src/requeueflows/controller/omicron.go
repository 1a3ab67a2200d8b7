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

// want-none "OmicronReconciler/finalizer-const" "OmicronReconciler/finalizer-add" "OmicronReconciler/finalizer-cleanup" "OmicronReconciler/finalizer-remove" "OmicronReconciler/condition-types" "OmicronReconciler/drift"

// OmicronReconciler gives each ConfigMap a Secret. A helper hands back a
// pointer to the result it wants, nil when it wants nothing; the entry
// returns what the pointer points to. The wait is made where the helper
// builds it, after creating the Secret, not where the entry dereferences
// the pointer.
type OmicronReconciler struct {
	client.Client
}

// ensureSecret creates the ConfigMap's Secret when it is missing, and asks
// to come back once it has been made.
func (r *OmicronReconciler) ensureSecret(ctx context.Context, cm *corev1.ConfigMap) (*ctrl.Result, error) {
	var s corev1.Secret
	err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Name}, &s)
	if err == nil {
		return nil, nil
	}
	if !apierrors.IsNotFound(err) {
		return nil, err
	}
	s = corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}}
	if err := r.Create(ctx, &s); err != nil {
		return nil, err
	}
	return &ctrl.Result{RequeueAfter: 5 * time.Second}, nil // want "OmicronReconciler/requeue-success" "OmicronReconciler/trace:return" "OmicronReconciler/trace:constant"
}

// Reconcile ensures the Secret, and hands back the helper's wait.
func (r *OmicronReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OmicronReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "OmicronReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	result, err := r.ensureSecret(ctx, &cm)
	if err != nil {
		return ctrl.Result{}, err // want "OmicronReconciler/requeue-error"
	}
	if result != nil {
		return *result, nil
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *OmicronReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("omicron").Complete(r)
}
