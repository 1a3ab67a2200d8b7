package controller

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// copyWait is how long an export waits for the copy it just made.
const copyWait = 3 * time.Second // want "ExportReconciler/trace:constant"

// want-none "ExportReconciler/finalizer-const" "ExportReconciler/finalizer-add" "ExportReconciler/finalizer-cleanup" "ExportReconciler/finalizer-remove" "ExportReconciler/condition-types" "ExportReconciler/drift"

// ExportReconciler copies a ConfigMap next to the Secret it names, once
// that Secret holds data. It waits for the Secret before any work, and
// for the copy after making it: that wait, in a helper, follows its
// caller's write. A failure of the copy is reported by a helper handed
// the pass's result.
type ExportReconciler struct {
	client.Client
}

// Reconcile makes the copy.
func (r *ExportReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ExportReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "ExportReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: cm.Namespace, Name: cm.Data["secret"]}, secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(secret.Data) == 0 {
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	res := ctrl.Result{}
	created, err := r.copyOnce(ctx, cm)
	if err != nil {
		return reportFailure(res, cm, err)
	}
	if created {
		return awaitCopy()
	}
	return res, nil
}

// copyOnce creates the copy; created says it did not exist before.
func (r *ExportReconciler) copyOnce(ctx context.Context, cm *corev1.ConfigMap) (bool, error) {
	dup := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-export"}, Data: cm.Data}
	err := r.Create(ctx, dup) // want "ExportReconciler/write-always"
	if apierrors.IsAlreadyExists(err) {
		return false, nil
	}
	return err == nil, err
}

// reportFailure returns the pass's result with the failure wrapped.
func reportFailure(res ctrl.Result, cm *corev1.ConfigMap, err error) (ctrl.Result, error) {
	return res, fmt.Errorf("export of %s: %w", cm.Name, err) // want "ExportReconciler/requeue-error"
}

// awaitCopy asks to come back once the copy has settled.
func awaitCopy() (ctrl.Result, error) {
	return ctrl.Result{RequeueAfter: copyWait}, nil // want "ExportReconciler/requeue-success" "ExportReconciler/trace:return"
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *ExportReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("export").For(&corev1.ConfigMap{}).Complete(r)
}
