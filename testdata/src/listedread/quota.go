// Package listedread holds a reconciler that never reads its object by the
// request's key: it lists LimitRanges, keeps those whose annotation names
// the request's quota, and reads every quota they name, the request's
// among them. Whether that read is the re-read, the code does not settle.
package listedread

import (
	"context"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "reread"

// quotasAnnotation lists, comma-separated, the quotas a LimitRange follows.
const quotasAnnotation = "quota.example.com/names"

// QuotaReconciler labels the LimitRanges that follow a ResourceQuota with
// the quotas' hard limits.
type QuotaReconciler struct{ client.Client }

// Reconcile finds the LimitRanges naming the request's quota and reads
// every quota each names.
func (r *QuotaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var ranges corev1.LimitRangeList
	if err := r.List(ctx, &ranges, client.InNamespace(req.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	for i := range ranges.Items {
		lr := &ranges.Items[i]
		names := strings.Split(lr.Annotations[quotasAnnotation], ",")
		if !slices.Contains(names, req.Name) {
			continue
		}
		if err := r.follow(ctx, lr, names); err != nil {
			return ctrl.Result{}, err // want "requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// follow reads the quotas a LimitRange names and labels it with their
// count.
func (r *QuotaReconciler) follow(ctx context.Context, lr *corev1.LimitRange, names []string) error {
	hard := 0
	for _, name := range names {
		var q corev1.ResourceQuota
		if err := r.Get(ctx, client.ObjectKey{Namespace: lr.Namespace, Name: name}, &q); err != nil {
			return client.IgnoreNotFound(err)
		}
		hard += len(q.Spec.Hard)
	}
	want := strings.Repeat("x", hard)
	if lr.Labels["quota.example.com/hard"] == want { // want "drift:compare"
		return nil
	}
	if lr.Labels == nil {
		lr.Labels = map[string]string{}
	}
	lr.Labels["quota.example.com/hard"] = want
	return r.Update(ctx, lr) // want "drift:apply"
}

// SetupWithManager registers the reconciler for ResourceQuotas.
func (r *QuotaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ResourceQuota{}).Complete(r)
}
