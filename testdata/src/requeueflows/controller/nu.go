package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "NuReconciler/finalizer-const" "NuReconciler/finalizer-add" "NuReconciler/finalizer-cleanup" "NuReconciler/finalizer-remove" "NuReconciler/condition-types" "NuReconciler/drift"

// renewEvery is how often a ConfigMap is renewed.
const renewEvery = 10 * time.Minute // want "NuReconciler/trace:constant"

// NuReconciler renews each ConfigMap; the result's wait is only ever set
// by a helper it hands the result's address, which stores the wait it is
// handed: the success requeue is the final return, its interval what the
// call hands the helper.
type NuReconciler struct {
	client.Client
}

// Reconcile renews the ConfigMap and asks for it again later.
func (r *NuReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NuReconciler/reconcile-entry"
	result := ctrl.Result{}
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "NuReconciler/reread"
		return result, client.IgnoreNotFound(err)
	}
	lowerWait(&result, renewEvery)
	cm.Annotations = map[string]string{"nu.example.com/renewed": "true"}
	if err := r.Update(ctx, &cm); err != nil { // want "NuReconciler/write-always"
		return result, err // want "NuReconciler/requeue-error"
	}
	return result, nil // want "NuReconciler/requeue-success" "NuReconciler/trace:return"
}

// lowerWait lowers the result's wait to d, when it has none or a longer
// one.
func lowerWait(result *ctrl.Result, d time.Duration) {
	if result.RequeueAfter == 0 || d < result.RequeueAfter {
		result.RequeueAfter = d
	}
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *NuReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("nu").For(&corev1.ConfigMap{}).Complete(r)
}
