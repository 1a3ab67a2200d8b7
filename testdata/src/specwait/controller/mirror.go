// Package controller holds a reconciler whose requeue stands under a test
// of a child's state (the copy is in sync), beside a status write's
// error, and waits the period the object's spec sets: the object's own
// resync, not a wait on the child.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	mirrorv1 "example.com/fixtures/specwait/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types"

// MirrorReconciler copies a Mirror's source ConfigMap.
type MirrorReconciler struct {
	client.Client
}

// recheck is the period a Mirror's spec asks for.
func recheck(m *mirrorv1.Mirror) time.Duration { // want "trace:getter"
	return time.Duration(m.Spec.RecheckMinutes) * time.Minute // want "trace:getter-body" "trace:constant"
}

// Reconcile copies the source when the copy is behind it.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	m := &mirrorv1.Mirror{}
	if err := r.Get(ctx, req.NamespacedName, m); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	src := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: m.Namespace, Name: m.Spec.Source}, src); err != nil {
		return ctrl.Result{}, err
	}
	copied := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, copied); err != nil {
		return ctrl.Result{}, err // want "requeue-error"
	}
	synced := copied.ResourceVersion != "" && copied.Data["from"] == src.ResourceVersion
	if synced {
		m.Status.Copied = src.ResourceVersion
		return ctrl.Result{RequeueAfter: recheck(m)}, r.Status().Update(ctx, m) // want "requeue-success" "write-always" "trace:return"
	}
	copied.Data = map[string]string{"from": src.ResourceVersion}
	for k, v := range src.Data {
		copied.Data[k] = v
	}
	if err := r.Update(ctx, copied); err != nil { // want "drift:unsettled"
		return ctrl.Result{}, err
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Mirrors.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&mirrorv1.Mirror{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
