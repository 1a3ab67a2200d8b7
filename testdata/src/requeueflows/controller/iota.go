package controller

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "IotaReconciler/finalizer-const" "IotaReconciler/finalizer-add" "IotaReconciler/finalizer-cleanup" "IotaReconciler/finalizer-remove" "IotaReconciler/condition-types" "IotaReconciler/requeue-success" "IotaReconciler/interval-trace" "IotaReconciler/drift"

// IotaReconciler stamps ConfigMaps and counts them.
type IotaReconciler struct {
	client.Client
	mu   sync.Mutex
	seen int
}

// Reconcile assigns one error variable three times: the read's, the
// write's, and the count's. The count never fails, so the return under
// its test never runs, whatever the variable held before it: the write's
// failure is the last before the success return.
func (r *IotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "IotaReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	err := r.Get(ctx, req.NamespacedName, &cm) // want "IotaReconciler/reread"
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	err = r.Update(ctx, &cm) // want "IotaReconciler/write-always"
	if err != nil {
		return ctrl.Result{}, err // want "IotaReconciler/requeue-error"
	}
	err = r.count()
	if err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (count never fails: err is nil here)
	}
	return ctrl.Result{}, nil
}

// count counts the ConfigMaps seen, under the lock it releases deferred.
func (r *IotaReconciler) count() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen++
	return nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *IotaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
