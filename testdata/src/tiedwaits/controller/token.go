package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "TokenReconciler/finalizer-const" "TokenReconciler/finalizer-add" "TokenReconciler/finalizer-cleanup" "TokenReconciler/finalizer-remove" "TokenReconciler/condition-types"
// want-none "TokenReconciler/requeue-success" "TokenReconciler/requeue-error"

// registeredLabel holds the token a Namespace was registered with.
const registeredLabel = "example.com/token"

// TokenReconciler registers each Namespace with the token it is given,
// waiting while there is none, both when it registers and after. The
// write before the second wait is in a branch that returns, or records
// the status: no work the wait is for, so neither wait comes after work,
// and which one is the success's requeue is not settled.
type TokenReconciler struct {
	client.Client
	tokens map[string]string
}

// token is the Namespace's token, if it has one yet.
func (r *TokenReconciler) token(ns string) (string, bool) {
	t, ok := r.tokens[ns]
	return t, ok
}

// Reconcile registers the Namespace, then checks that its token stays.
func (r *TokenReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TokenReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "TokenReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if ns.Labels[registeredLabel] == "" { // want "TokenReconciler/drift:compare"
		tok, ok := r.token(ns.Name)
		if !ok {
			return ctrl.Result{RequeueAfter: 5 * time.Second}, nil // want "TokenReconciler/trace:return" "TokenReconciler/trace:constant"
		}
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[registeredLabel] = tok
		if err := r.Update(ctx, &ns); err != nil { // want "TokenReconciler/drift:apply"
			return ctrl.Result{}, err
		}
		return ctrl.Result{Requeue: true}, nil
	}
	ns.Status.Phase = corev1.NamespaceActive
	if err := r.Status().Update(ctx, &ns); err != nil {
		return ctrl.Result{}, err // the failure last before the final return, not before the first wait: not settled
	}
	if _, ok := r.token(ns.Name); !ok {
		return ctrl.Result{RequeueAfter: 5 * time.Second}, nil
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *TokenReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(r)
}
