package controller

import (
	"context"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "PayloadReconciler/condition-types" "PayloadReconciler/requeue-success" "PayloadReconciler/interval-trace" "PayloadReconciler/drift"

const payloadFinalizer = "saves.example.com/payload" // want "PayloadReconciler/finalizer-const"

// PayloadReconciler holds a finalizer on ServiceAccounts and drops it as
// soon as one is being deleted: it renders a merge patch of a copy without
// the finalizer through a helper, then sends it. The helper only computes
// bytes, so the deletion branch runs no cleanup.
type PayloadReconciler struct {
	client.Client
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *PayloadReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}

// Reconcile adds the finalizer, or drops it on deletion.
func (r *PayloadReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PayloadReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "PayloadReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	updated := sa.DeepCopy()
	if !sa.DeletionTimestamp.IsZero() {
		// want-none "PayloadReconciler/finalizer-cleanup"
		controllerutil.RemoveFinalizer(updated, payloadFinalizer) // want "PayloadReconciler/finalizer-remove"
		data, err := mergePayload(&sa, updated)
		if err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.Patch(ctx, &sa, client.RawPatch(types.StrategicMergePatchType, data))
	}
	if controllerutil.AddFinalizer(updated, payloadFinalizer) { // want "PayloadReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, updated) // want "PayloadReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// mergePayload renders the strategic merge patch from before to after.
func mergePayload(before, after *corev1.ServiceAccount) ([]byte, error) {
	old, err := json.Marshal(before)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", before.Name, err)
	}
	updated, err := json.Marshal(after)
	if err != nil {
		return nil, err
	}
	return strategicpatch.CreateTwoWayMergePatch(old, updated, corev1.ServiceAccount{})
}
