package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// secretResync is how often a Secret is looked at again.
const secretResync = 30 * time.Minute // want "ZetaReconciler/trace:constant"

// ZetaReconciler annotates Secrets.
type ZetaReconciler struct {
	client.Client
}

// Reconcile runs the inner pass (in a closure called at once), then
// writes the Secret and hands back the inner pass's interval with the
// write's error: the success requeue is the inner pass's return, which
// makes the interval with a nil error; the copy hands it on.
func (r *ZetaReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ZetaReconciler/reconcile-entry"
	var secret corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &secret); err != nil { // want "ZetaReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "ZetaReconciler/requeue-error"
	}
	inner, err := func() (ctrl.Result, error) { return r.inner(&secret) }()
	if err != nil {
		return ctrl.Result{}, err // decoy: requeue-error (inner never fails: this never runs)
	}
	return ctrl.Result{RequeueAfter: inner.RequeueAfter}, r.Update(ctx, &secret) // want "ZetaReconciler/write-always"
}

// inner annotates the Secret and says when to look again.
func (r *ZetaReconciler) inner(secret *corev1.Secret) (ctrl.Result, error) {
	if secret.Annotations == nil {
		secret.Annotations = map[string]string{}
	}
	secret.Annotations["seen"] = "true"
	return ctrl.Result{RequeueAfter: secretResync}, nil // want "ZetaReconciler/requeue-success" "ZetaReconciler/trace:return"
}

// SetupWithManager registers the reconciler for Secrets.
func (r *ZetaReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
