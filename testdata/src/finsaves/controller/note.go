package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "NoteReconciler/finalizer-const" "NoteReconciler/finalizer-add" "NoteReconciler/finalizer-remove" "NoteReconciler/condition-types" "NoteReconciler/requeue-success" "NoteReconciler/interval-trace" "NoteReconciler/drift"

// NoteReconciler marks a deleted ConfigMap as going, through a closure
// that saves it: no cleanup.
type NoteReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *NoteReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile marks a deleted ConfigMap.
func (r *NoteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NoteReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "NoteReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	mark := func(state string) error {
		if cm.Annotations == nil {
			cm.Annotations = map[string]string{}
		}
		cm.Annotations["notes.example.com/state"] = state
		return r.Update(ctx, cm)
	}
	if cm.DeletionTimestamp != nil {
		// want-none "NoteReconciler/finalizer-cleanup"
		return ctrl.Result{}, mark("going") // want "NoteReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}
