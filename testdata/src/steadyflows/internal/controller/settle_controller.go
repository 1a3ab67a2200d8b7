package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "SettleReconciler/finalizer-const" "SettleReconciler/finalizer-add" "SettleReconciler/finalizer-cleanup" "SettleReconciler/finalizer-remove" "SettleReconciler/condition-types" "SettleReconciler/requeue-success" "SettleReconciler/interval-trace" "SettleReconciler/drift"

// SettleReconciler labels each Ticker with the tick a ConfigMap holds. A
// Ticker that has not ticked is handed, with the ConfigMap, to a helper that patches the Ticker through a client.Object:
// the Ticker's own state, written back, which is no drift correction.
type SettleReconciler struct {
	client.Client
}

// Reconcile settles one Ticker.
func (r *SettleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SettleReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "SettleReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if stateOf(obj) != "ticked" {
		var cm corev1.ConfigMap
		if err := r.Get(ctx, client.ObjectKey{Namespace: obj.Namespace, Name: "ticks"}, &cm); err != nil {
			return ctrl.Result{}, client.IgnoreNotFound(err)
		}
		return ctrl.Result{}, r.settle(ctx, obj, &cm) // want "SettleReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// stateOf says whether a Ticker has ticked.
func stateOf(t *tickv1.Ticker) string {
	if t.Status.LastTick.IsZero() {
		return "new"
	}
	return "ticked"
}

// settle labels the Ticker with the ConfigMap's tick.
func (r *SettleReconciler) settle(ctx context.Context, obj *tickv1.Ticker, cm *corev1.ConfigMap) error {
	return r.label(ctx, obj, cm.Data["tick"])
}

// label patches a label onto an object.
func (r *SettleReconciler) label(ctx context.Context, obj client.Object, tick string) error {
	patch := client.MergeFrom(obj.DeepCopyObject().(client.Object))
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	labels["tick"] = tick
	obj.SetLabels(labels)
	return r.Patch(ctx, obj, patch)
}

// SetupWithManager registers the reconciler for Tickers.
func (r *SettleReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Complete(r)
}
