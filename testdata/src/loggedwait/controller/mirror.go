// Package controller holds a reconciler that copies a Secret's keys into
// a ConfigMap. A mode it does not know is logged as an error and retried
// after a while (a failure's retry); a Secret with no data yet is waited
// for (a dependency wait), whatever a failed note of that wait logs.
package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/drift"

// MirrorReconciler mirrors the keys of the Secret a ConfigMap names.
type MirrorReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile mirrors the Secret's keys.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	log := ctrl.LoggerFrom(ctx)
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	switch cm.Data["mode"] {
	case "", "keys":
	default:
		log.Error(errors.New("unknown mode"), "cannot mirror", "mode", cm.Data["mode"])
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil // decoy: requeue-success (the unknown mode is a failure, retried)
	}
	var secret corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Data["secret"]}, &secret); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if len(secret.Data) == 0 {
		if err := r.noteWait(ctx, &cm); err != nil {
			log.Error(err, "cannot note the wait")
		}
		var wait = 30 * time.Second // want "MirrorReconciler/trace:constant"
		log.Info("waiting for the Secret's data", "after", wait)
		return ctrl.Result{RequeueAfter: wait}, nil // want "MirrorReconciler/requeue-success" "MirrorReconciler/trace:return"
	}
	keys := ""
	for k := range secret.Data {
		keys += k + ","
	}
	cm.Data["keys"] = keys
	return ctrl.Result{}, r.Update(ctx, &cm) // want "MirrorReconciler/requeue-error" "MirrorReconciler/write-always" "MirrorReconciler/hot-loop"
}

// noteWait records on the ConfigMap that it waits.
func (r *MirrorReconciler) noteWait(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["mirror"] = "waiting"
	return r.Update(ctx, cm)
}
