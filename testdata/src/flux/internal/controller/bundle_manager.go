package controller

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/fluxcd/pkg/runtime/predicates"

	bundlev1 "example.com/fixtures/flux/api/v1"
)

// BundleReconcilerOptions tunes the Bundle controller.
type BundleReconcilerOptions struct {
	RateLimiter workqueue.TypedRateLimiter[reconcile.Request]
}

// SetupWithManager registers the reconciler with the manager.
func (r *BundleReconciler) SetupWithManager(mgr ctrl.Manager, opts BundleReconcilerOptions) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&bundlev1.Bundle{}, builder.WithPredicates(
			predicate.Or(predicate.GenerationChangedPredicate{}, predicates.ReconcileRequestedPredicate{}),
		)).
		Owns(&corev1.ConfigMap{}).
		WithOptions(controller.Options{RateLimiter: opts.RateLimiter}).
		Complete(r)
}
