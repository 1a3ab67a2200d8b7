package controller

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove" "StampReconciler/condition-types"

// resync is how long a ConfigMap in sync waits before it is looked at
// again.
const resync = 5 * time.Minute // want "StampReconciler/trace:constant"

// StampReconciler copies a ConfigMap's revision into the Secret of the
// same name, and reports a ConfigMap whose revision is not a number.
type StampReconciler struct {
	client.Client
}

// Reconcile copies the revision when the Secret's is behind it.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "StampReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	secret := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, secret); err != nil {
		return ctrl.Result{}, err
	}
	inSync := string(secret.Data["revision"]) == cm.Data["revision"] // want "StampReconciler/drift:compare"
	if inSync {
		return ctrl.Result{RequeueAfter: resync}, validate(cm) // want "StampReconciler/requeue-success" "StampReconciler/trace:return"
	}
	secret.Data = map[string][]byte{"revision": []byte(cm.Data["revision"])}
	if err := r.Update(ctx, secret); err != nil { // want "StampReconciler/write-unsettled" "StampReconciler/drift:apply"
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, validate(cm) // want "StampReconciler/requeue-error"
}

// validate fails for a ConfigMap whose revision is not a number.
func validate(cm *corev1.ConfigMap) error {
	if _, err := strconv.Atoi(cm.Data["revision"]); err != nil {
		return fmt.Errorf("revision of %s: %w", cm.Name, err)
	}
	return nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("stamp").For(&corev1.ConfigMap{}).Owns(&corev1.Secret{}).Complete(r)
}
