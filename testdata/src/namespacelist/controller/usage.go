package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "UsageReconciler/finalizer-const" "UsageReconciler/finalizer-add" "UsageReconciler/finalizer-cleanup" "UsageReconciler/finalizer-remove" "UsageReconciler/condition-types" "UsageReconciler/requeue-success" "UsageReconciler/interval-trace"

// UsageReconciler records in each namespace's ResourceQuota how many Pods
// the namespace holds. A namespace has one quota, whatever its name, so
// the pass lists the quotas of the request's namespace and takes the
// first: that List is where the object is re-read, by part of its key.
type UsageReconciler struct {
	client.Client
}

// Reconcile records the namespace's Pod count on its quota.
func (r *UsageReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "UsageReconciler/reconcile-entry"
	var quotas corev1.ResourceQuotaList
	if err := r.List(ctx, &quotas, client.InNamespace(req.Namespace)); err != nil { // want "UsageReconciler/reread"
		return ctrl.Result{}, err
	}
	if len(quotas.Items) == 0 {
		return ctrl.Result{}, nil
	}
	quota := &quotas.Items[0]
	var pods corev1.PodList
	if err := r.List(ctx, &pods, client.InNamespace(req.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	used := corev1.ResourceList{corev1.ResourcePods: *resource.NewQuantity(int64(len(pods.Items)), resource.DecimalSI)}
	if equality.Semantic.DeepEqual(used, quota.Status.Used) { // want "UsageReconciler/drift:compare"
		return ctrl.Result{}, nil
	}
	updated := quota.DeepCopy()
	updated.Status.Used = used
	return ctrl.Result{}, r.Status().Patch(ctx, updated, client.MergeFrom(quota)) // want "UsageReconciler/requeue-error" "UsageReconciler/drift:apply"
}

// SetupWithManager registers the reconciler for ResourceQuotas.
func (r *UsageReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("usage").For(&corev1.ResourceQuota{}).Complete(r)
}
