package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "OptionalReconciler/finalizer-cleanup" "OptionalReconciler/condition-types" "OptionalReconciler/requeue-success" "OptionalReconciler/interval-trace" "OptionalReconciler/drift"

// optionalFinalizer holds a ServiceAccount until its Secrets are dealt
// with.
const optionalFinalizer = "finwork.example.com/optional" // want "OptionalReconciler/finalizer-const"

// OptionalReconciler's deletion branch runs two pieces of work, each only
// where a test of its own holds (an orphaning policy, a purge request), and
// then lets the ServiceAccount go: a pass may run either, both or neither,
// so which one is the finalizer's cleanup the code does not settle.
type OptionalReconciler struct {
	client.Client
}

// Reconcile deals with a ServiceAccount being deleted, and adds the
// finalizer to one that is not.
func (r *OptionalReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "OptionalReconciler/reconcile-entry"
	var sa corev1.ServiceAccount
	if err := r.Get(ctx, req.NamespacedName, &sa); err != nil { // want "OptionalReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if sa.DeletionTimestamp != nil {
		if sa.Annotations["finwork.example.com/orphan"] == "true" {
			if err := r.orphan(ctx, &sa); err != nil {
				return ctrl.Result{}, err
			}
		}
		if sa.Annotations["finwork.example.com/purge"] == "true" {
			if err := r.purge(ctx, &sa); err != nil {
				return ctrl.Result{}, err
			}
		}
		controllerutil.RemoveFinalizer(&sa, optionalFinalizer) // want "OptionalReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &sa)
	}
	if controllerutil.AddFinalizer(&sa, optionalFinalizer) { // want "OptionalReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &sa) // want "OptionalReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// orphan unlabels the ServiceAccount's Secrets.
func (r *OptionalReconciler) orphan(ctx context.Context, sa *corev1.ServiceAccount) error {
	var secrets corev1.SecretList
	if err := r.List(ctx, &secrets, client.InNamespace(sa.Namespace), client.MatchingLabels{"account": sa.Name}); err != nil {
		return err
	}
	for i := range secrets.Items {
		delete(secrets.Items[i].Labels, "account")
		if err := r.Update(ctx, &secrets.Items[i]); err != nil {
			return err
		}
	}
	return nil
}

// purge deletes the ServiceAccount's Secrets.
func (r *OptionalReconciler) purge(ctx context.Context, sa *corev1.ServiceAccount) error {
	return r.DeleteAllOf(ctx, &corev1.Secret{}, client.InNamespace(sa.Namespace), client.MatchingLabels{"account": sa.Name})
}

// SetupOptional registers the reconciler for ServiceAccounts.
func SetupOptional(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(&OptionalReconciler{Client: mgr.GetClient()})
}
