package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "XiReconciler/finalizer-const" "XiReconciler/finalizer-add" "XiReconciler/finalizer-cleanup" "XiReconciler/finalizer-remove" "XiReconciler/condition-types" "XiReconciler/drift"
// want-none "XiReconciler/requeue-success" "XiReconciler/interval-trace"

// XiReconciler stamps each ConfigMap through a service whose named result
// is returned as it is, never assigned: a zero result, so the success
// requeue is none (event-driven), not an interval made elsewhere.
type XiReconciler struct {
	client.Client
}

// labeler labels ConfigMaps.
type labeler struct {
	c client.Client
}

// label stamps the ConfigMap on every pass; res is never assigned.
func (l *labeler) label(ctx context.Context, cm *corev1.ConfigMap) (res ctrl.Result, err error) {
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["labelled-at"] = time.Now().String()
	if err := l.c.Update(ctx, cm); err != nil { // want "XiReconciler/write-always" "XiReconciler/hot-loop"
		return ctrl.Result{}, err // want "XiReconciler/requeue-error"
	}
	return res, nil
}

// Reconcile labels the ConfigMap.
func (r *XiReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "XiReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "XiReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return (&labeler{c: r.Client}).label(ctx, &cm)
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *XiReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("xi").Complete(r)
}
