package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "MarkReconciler/finalizer-const" "MarkReconciler/finalizer-add" "MarkReconciler/finalizer-cleanup" "MarkReconciler/finalizer-remove" "MarkReconciler/condition-types" "MarkReconciler/requeue-success" "MarkReconciler/interval-trace"

// MarkReconciler labels a ServiceAccount once with the mark a ConfigMap
// holds; the work is a helper the entry returns through, with two
// failure returns of its own: the last, the label's write, is the main
// work's.
type MarkReconciler struct {
	client.Client
}

// Reconcile marks an unmarked ServiceAccount.
func (r *MarkReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MarkReconciler/reconcile-entry"
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, req.NamespacedName, sa); err != nil { // want "MarkReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sa.Labels["mark"] == "" { // want "MarkReconciler/drift:compare"
		return r.mark(ctx, sa)
	}
	return ctrl.Result{}, nil
}

// mark reads the mark and writes it.
func (r *MarkReconciler) mark(ctx context.Context, sa *corev1.ServiceAccount) (ctrl.Result, error) {
	marks := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKey{Namespace: sa.Namespace, Name: "marks"}, marks); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sa.Labels == nil {
		sa.Labels = map[string]string{}
	}
	sa.Labels["mark"] = marks.Data["mark"]
	return ctrl.Result{}, r.Update(ctx, sa) // want "MarkReconciler/requeue-error" "MarkReconciler/drift:apply"
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *MarkReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}
