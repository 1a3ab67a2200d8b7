package controller

import (
	"context"
	stdlog "log"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "NoteReconciler/finalizer-cleanup"
// want-none "NoteReconciler/condition-types" "NoteReconciler/requeue-success" "NoteReconciler/interval-trace" "NoteReconciler/drift"

// noteFinalizer holds a PersistentVolumeClaim until its deletion is noted.
const noteFinalizer = "finproof.example.com/note" // want "NoteReconciler/finalizer-const"

// NoteReconciler keeps a finalizer on PersistentVolumeClaims. On deletion
// its branch first calls a function of the tree handed only the claim's
// key, then drops the finalizer inline: whether that call is the cleanup
// (work on another system, by name) or only notes the deletion is not in
// the call.
type NoteReconciler struct {
	client.Client
}

// Reconcile keeps the finalizer on one claim.
func (r *NoteReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NoteReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "NoteReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pvc.DeletionTimestamp.IsZero() {
		noteGoing(req.String())
		controllerutil.RemoveFinalizer(&pvc, noteFinalizer) // want "NoteReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &pvc)
	}
	if controllerutil.AddFinalizer(&pvc, noteFinalizer) { // want "NoteReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &pvc) // want "NoteReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// noteGoing writes one line about a claim that is going.
func noteGoing(key string) {
	stdlog.Printf("claim %s is being deleted", key)
}

// SetupWithManager registers the reconciler for claims.
func (r *NoteReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Named("note").Complete(r)
}
