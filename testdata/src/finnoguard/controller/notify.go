package controller

import (
	"context"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "NotifyReconciler/finalizer-const" "NotifyReconciler/finalizer-add" "NotifyReconciler/finalizer-cleanup" "NotifyReconciler/finalizer-remove"
// want-none "NotifyReconciler/condition-types" "NotifyReconciler/requeue-success" "NotifyReconciler/interval-trace" "NotifyReconciler/drift"

// NotifyReconciler watches ServiceAccounts. It keeps no finalizer; on a
// ServiceAccount's deletion it tells a web hook the key: a call handed only
// the key that changes none of the controller's state. Whether that is work
// done on deletion or only a notice of it is not in the code.
type NotifyReconciler struct {
	client.Client
	hook string
}

// Reconcile looks at one ServiceAccount.
func (r *NotifyReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NotifyReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "NotifyReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "NotifyReconciler/requeue-error"
	}
	if sa.DeletionTimestamp != nil {
		r.notify(req.String())
	}
	return ctrl.Result{}, nil
}

// notify posts a key to the hook.
func (r *NotifyReconciler) notify(key string) {
	resp, err := http.PostForm(r.hook, url.Values{"key": {key}})
	if err == nil {
		resp.Body.Close()
	}
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *NotifyReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Named("notify").Complete(r)
}
