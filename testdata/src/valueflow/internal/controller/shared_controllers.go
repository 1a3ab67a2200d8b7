package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"example.com/fixtures/valueflow/internal/shared"
)

// want-none "AccountReconciler/finalizer-const" "AccountReconciler/finalizer-add" "AccountReconciler/finalizer-cleanup" "AccountReconciler/finalizer-remove" "AccountReconciler/condition-types" "AccountReconciler/requeue-success" "AccountReconciler/interval-trace" "AccountReconciler/drift"
// want-none "NamespaceReconciler/finalizer-const" "NamespaceReconciler/finalizer-add" "NamespaceReconciler/finalizer-cleanup" "NamespaceReconciler/finalizer-remove" "NamespaceReconciler/condition-types" "NamespaceReconciler/requeue-success" "NamespaceReconciler/interval-trace" "NamespaceReconciler/drift"

// AccountReconciler and NamespaceReconciler run the shared runner, each
// with a Status of its own. The runner's status write, a call that may run
// either Status's Write, runs this controller's on its pass: the other's is
// never made on it. The entry hands the runner's result back after testing
// its error, so the runner's pass is the entry's, and its paused return is
// a special case, not the end of every pass.
type AccountReconciler struct {
	client.Client
}

// Reconcile runs the shared runner over one ServiceAccount.
func (r *AccountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AccountReconciler/reconcile-entry"
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, req.NamespacedName, sa); err != nil { // want "AccountReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := shared.New(&accountStatus{Client: r.Client, account: sa}).Run(ctx, sa.Annotations["paused"] == "true")
	if err != nil {
		return res, fmt.Errorf("service account %s: %w", sa.Name, err) // want "AccountReconciler/requeue-error"
	}
	return res, nil
}

// accountStatus writes a ServiceAccount.
type accountStatus struct {
	client.Client
	account *corev1.ServiceAccount
}

// Write updates the ServiceAccount.
func (s *accountStatus) Write(ctx context.Context) error {
	return s.Update(ctx, s.account) // want "AccountReconciler/write-always"
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *AccountReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}

// NamespaceReconciler runs the shared runner over Namespaces.
type NamespaceReconciler struct {
	client.Client
}

// Reconcile runs the shared runner over one Namespace.
func (r *NamespaceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "NamespaceReconciler/reconcile-entry"
	ns := &corev1.Namespace{}
	if err := r.Get(ctx, req.NamespacedName, ns); err != nil { // want "NamespaceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := shared.New(&namespaceStatus{Client: r.Client, namespace: ns}).Run(ctx, ns.Labels["paused"] == "true")
	if err != nil {
		return res, fmt.Errorf("namespace %s: %w", ns.Name, err) // want "NamespaceReconciler/requeue-error"
	}
	return res, nil
}

// namespaceStatus writes a Namespace's status.
type namespaceStatus struct {
	client.Client
	namespace *corev1.Namespace
}

// Write updates the Namespace's status.
func (s *namespaceStatus) Write(ctx context.Context) error {
	return s.Status().Update(ctx, s.namespace) // want "NamespaceReconciler/write-always"
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *NamespaceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(r)
}
