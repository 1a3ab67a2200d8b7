// Package controller holds reconcilers whose deletion branch is found
// through a predicate of the tree, or whose cleanup runs through an
// interface with one implementation per kind.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "PodReconciler/condition-types" "PodReconciler/requeue-success" "PodReconciler/interval-trace" "PodReconciler/drift"

// ledgerFinalizer keeps an unowned Pod until its ledger entry is gone.
const ledgerFinalizer = "findispatch.example.com/ledger" // want "PodReconciler/finalizer-const"

// legacyFinalizer is the name an older release used; it is migrated away
// from on live Pods.
const legacyFinalizer = "ledger.findispatch.example.com"

// PodReconciler keeps a ledger entry for every Pod no controller owns.
type PodReconciler struct {
	client.Client
}

// isOrphaned holds for a Pod that no controller owns and that is being
// deleted.
func isOrphaned(pod *corev1.Pod) bool {
	if len(pod.OwnerReferences) > 0 {
		return false
	}
	return !pod.DeletionTimestamp.IsZero()
}

// needsMigration holds for a live Pod that still carries the legacy
// finalizer: it tests the deletion timestamp, but holds only while it is
// unset.
func needsMigration(pod *corev1.Pod) bool {
	if pod.DeletionTimestamp != nil {
		return false
	}
	return controllerutil.ContainsFinalizer(pod, legacyFinalizer)
}

// Reconcile writes or releases one Pod's ledger entry.
func (r *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PodReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "PodReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if needsMigration(&pod) {
		return ctrl.Result{}, r.migrate(ctx, &pod)
	}
	if isOrphaned(&pod) {
		return ctrl.Result{}, r.release(ctx, &pod)
	}
	if len(pod.OwnerReferences) > 0 {
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(&pod, ledgerFinalizer) { // want "PodReconciler/finalizer-add"
		if err := r.Update(ctx, &pod); err != nil {
			return ctrl.Result{}, err
		}
	}
	entry := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-ledger", Namespace: pod.Namespace}}
	if err := r.Create(ctx, entry); client.IgnoreAlreadyExists(err) != nil { // want "PodReconciler/write-always"
		return ctrl.Result{}, err // want "PodReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// migrate drops the legacy finalizer from a live Pod.
func (r *PodReconciler) migrate(ctx context.Context, pod *corev1.Pod) error {
	controllerutil.RemoveFinalizer(pod, legacyFinalizer)
	return r.Update(ctx, pod)
}

// release deletes an orphaned Pod's ledger entry and lets the Pod go.
func (r *PodReconciler) release(ctx context.Context, pod *corev1.Pod) error { // want "PodReconciler/finalizer-cleanup"
	entry := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-ledger", Namespace: pod.Namespace}}
	if err := r.Delete(ctx, entry); client.IgnoreNotFound(err) != nil {
		return err
	}
	controllerutil.RemoveFinalizer(pod, ledgerFinalizer) // want "PodReconciler/finalizer-remove"
	return r.Update(ctx, pod)
}

// SetupPod registers the Pod reconciler.
func SetupPod(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Named("ledger").Complete(&PodReconciler{Client: mgr.GetClient()})
}
