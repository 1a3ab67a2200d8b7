package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "SnapshotReconciler/finalizer-const" "SnapshotReconciler/finalizer-add" "SnapshotReconciler/finalizer-cleanup" "SnapshotReconciler/finalizer-remove" "SnapshotReconciler/condition-types" "SnapshotReconciler/drift"

// snapshotInterval is how often a ConfigMap's snapshot is taken.
const snapshotInterval = 10 * time.Minute // want "SnapshotReconciler/trace:constant"

// SnapshotReconciler stamps ConfigMaps with the time of their last
// snapshot. Its results are named and handed back by bare returns.
type SnapshotReconciler struct {
	client.Client
}

// Reconcile snapshots one ConfigMap.
func (r *SnapshotReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "SnapshotReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if retErr = r.Get(ctx, req.NamespacedName, cm); retErr != nil { // want "SnapshotReconciler/reread"
		retErr = client.IgnoreNotFound(retErr)
		return
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["snapshot.valueflow.example.com/taken"] = time.Now().Format(time.RFC3339)
	if err := r.Update(ctx, cm); err != nil { // want "SnapshotReconciler/write-always" "SnapshotReconciler/hot-loop"
		result, retErr = ctrl.Result{}, err // want "SnapshotReconciler/requeue-error"
		return
	}
	result, retErr = ctrl.Result{RequeueAfter: snapshotInterval}, nil // want "SnapshotReconciler/requeue-success" "SnapshotReconciler/trace:return"
	return
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *SnapshotReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
