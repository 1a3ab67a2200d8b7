package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "RefreshReconciler/finalizer-const" "RefreshReconciler/finalizer-add" "RefreshReconciler/finalizer-cleanup" "RefreshReconciler/finalizer-remove" "RefreshReconciler/condition-types" "RefreshReconciler/drift"

// refreshEvery is how often a Secret's stamp is refreshed.
const refreshEvery = 10 * time.Minute // want "RefreshReconciler/trace:constant"

// RefreshReconciler stamps each Secret and comes back to it on a period.
// Its work returns a Result alone: a failed stamp is logged and retried
// after a while, a stamped Secret waits for the next period. The success
// requeue is the helper's own return, and so is the retry.
type RefreshReconciler struct {
	client.Client
}

// Reconcile stamps the Secret.
func (r *RefreshReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RefreshReconciler/reconcile-entry"
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "RefreshReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return r.stamp(ctx, &secret), nil
}

// stamp writes the time onto the Secret.
func (r *RefreshReconciler) stamp(ctx context.Context, secret *corev1.Secret) ctrl.Result {
	if secret.Annotations == nil {
		secret.Annotations = map[string]string{}
	}
	secret.Annotations["stamped"] = time.Now().UTC().Format(time.RFC3339)
	if err := r.Update(ctx, secret); err != nil { // want "RefreshReconciler/write-always" "RefreshReconciler/hot-loop"
		ctrl.LoggerFrom(ctx).Error(err, "stamp")
		return ctrl.Result{RequeueAfter: retryAfter} // want "RefreshReconciler/requeue-error"
	}
	return ctrl.Result{RequeueAfter: refreshEvery} // want "RefreshReconciler/requeue-success" "RefreshReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *RefreshReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("refresh").For(&corev1.Secret{}).Complete(r)
}
