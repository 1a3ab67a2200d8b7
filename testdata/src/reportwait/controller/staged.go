package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// StagedReconciler patches the Endpoints in a deferred function that hands
// the patch's failure back only where the pass's own error is still nil;
// the body sets that error step by step on its way to a bare return.
// The deferred patch's failure is never the main work's, and which of the
// body's steps is, is not settled.
type StagedReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler.
func (r *StagedReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Endpoints{}).Complete(r)
}

// Reconcile labels the Endpoints and makes their marker ConfigMap.
func (r *StagedReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, err error) { // want "StagedReconciler/reconcile-entry"
	var ep corev1.Endpoints
	if err = r.Get(ctx, req.NamespacedName, &ep); err != nil { // want "StagedReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	before := ep.DeepCopy()
	defer func() {
		patched := r.Patch(ctx, &ep, client.MergeFrom(before)) // want "StagedReconciler/write-always"
		if err == nil && patched != nil {
			err = patched
		}
	}()
	ep.Labels = map[string]string{"staged": "true"}
	marker := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ep.Namespace, Name: ep.Name + "-staged"}}
	err = client.IgnoreAlreadyExists(r.Create(ctx, marker)) // want "StagedReconciler/write-always"
	return
} // want-none "StagedReconciler/condition-types" "StagedReconciler/finalizer-const" "StagedReconciler/finalizer-add" "StagedReconciler/finalizer-cleanup" "StagedReconciler/finalizer-remove" "StagedReconciler/requeue-error" "StagedReconciler/requeue-success" "StagedReconciler/interval-trace" "StagedReconciler/drift"
