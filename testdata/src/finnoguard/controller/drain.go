package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "DrainReconciler/finalizer-const" "DrainReconciler/finalizer-add" "DrainReconciler/finalizer-cleanup" "DrainReconciler/finalizer-remove"
// want-none "DrainReconciler/condition-types" "DrainReconciler/requeue-success" "DrainReconciler/interval-trace" "DrainReconciler/drift"

// finalizerPatcher keeps the reconciler's finalizers; its implementation
// is wired in where the tree does not show.
type finalizerPatcher interface {
	Release(ctx context.Context, obj client.Object) error
}

// DrainReconciler drains a Pod's endpoints on its deletion, then hands the
// Pod to a patcher whose body is not in the tree, which may hold the
// finalizer that waits for the drain: whether a finalizer guards the
// branch is not known, so neither is its cleanup.
type DrainReconciler struct {
	client.Client
	patcher finalizerPatcher
}

// Reconcile looks at one Pod.
func (r *DrainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DrainReconciler/reconcile-entry"
	var pod corev1.Pod
	if err := r.Get(ctx, req.NamespacedName, &pod); err != nil { // want "DrainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pod.DeletionTimestamp.IsZero() {
		if err := r.drain(ctx, &pod); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.patcher.Release(ctx, &pod) // want "DrainReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// drain deletes the Pod's Endpoints.
func (r *DrainReconciler) drain(ctx context.Context, pod *corev1.Pod) error {
	return client.IgnoreNotFound(r.Delete(ctx, &corev1.Endpoints{ObjectMeta: pod.ObjectMeta}))
}

// SetupWithManager registers the reconciler for Pods.
func (r *DrainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Named("drain").Complete(r)
}
