package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "AccountReconciler/condition-types" "AccountReconciler/drift" "AccountReconciler/requeue-success" "AccountReconciler/interval-trace"

// accountFinalizer holds a Secret until its ServiceAccount is released.
const accountFinalizer = "example.com/account" // want "AccountReconciler/finalizer-const"

// AccountReconciler keeps a ServiceAccount beside each Secret. A live
// Secret's pass ends in the helper it hands the rest to, inside the if
// that tests the deletion; the else handles the deletion, and the return
// after both is reached only by a Secret being deleted without the
// finalizer: the last return in the source is not the success path's.
type AccountReconciler struct {
	client.Client
}

// accountPass is one pass over a Secret.
type accountPass struct {
	c client.Client
	s *corev1.Secret
}

// Reconcile adds the finalizer and hands a live Secret's pass on, or
// releases a deleted Secret's ServiceAccount.
func (r *AccountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AccountReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "AccountReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	pass := &accountPass{c: r.Client, s: &s}
	if s.DeletionTimestamp.IsZero() {
		controllerutil.AddFinalizer(&s, accountFinalizer) // want "AccountReconciler/finalizer-add"
		if err := r.Update(ctx, &s); err != nil {         // want "AccountReconciler/write-always"
			return ctrl.Result{}, err
		}
		return pass.reconcile(ctx)
	} else {
		if controllerutil.ContainsFinalizer(&s, accountFinalizer) {
			if err := pass.release(ctx); err != nil {
				return ctrl.Result{}, err
			}
			controllerutil.RemoveFinalizer(&s, accountFinalizer) // want "AccountReconciler/finalizer-remove"
			return ctrl.Result{}, r.Update(ctx, &s)
		}
	}
	return ctrl.Result{}, nil
}

// account is the Secret's ServiceAccount.
func (p *accountPass) account() *corev1.ServiceAccount {
	return &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: p.s.Namespace, Name: p.s.Name}}
}

// reconcile creates the ServiceAccount when it is missing.
func (p *accountPass) reconcile(ctx context.Context) (ctrl.Result, error) {
	if err := p.c.Create(ctx, p.account()); err != nil && !apierrors.IsAlreadyExists(err) { // want "AccountReconciler/write-always"
		return ctrl.Result{}, err // want "AccountReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// release deletes the ServiceAccount.
func (p *accountPass) release(ctx context.Context) error { // want "AccountReconciler/finalizer-cleanup"
	return client.IgnoreNotFound(p.c.Delete(ctx, p.account()))
}

// SetupWithManager registers the reconciler for Secrets.
func (r *AccountReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}
