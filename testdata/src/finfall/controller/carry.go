package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// carryFinalizer holds a Namespace until its carried ConfigMap is gone.
const carryFinalizer = "finfall.example.com/carried" // want "CarryReconciler/finalizer-const"

// accountFinalizer holds a ServiceAccount until its token Secret is gone.
const accountFinalizer = "finfall.example.com/token" // want "AccountReconciler/finalizer-const"

// CarryReconciler's deletion branch hands all of its work to finish, which
// only wraps one call of the tree's (release) around the finalizer's
// removal: finish is the function the deletion branch runs, the cleanup
// (spec rows.md), whether it was written as a helper or is the branch's
// body moved out of it.
type CarryReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or on deletion runs finish.
func (r *CarryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "CarryReconciler/reconcile-entry"
	ns := &corev1.Namespace{}
	if err := r.Get(ctx, req.NamespacedName, ns); err != nil { // want "CarryReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !ns.DeletionTimestamp.IsZero() {
		return r.finish(ctx, ns)
	}
	if controllerutil.AddFinalizer(ns, carryFinalizer) { // want "CarryReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, ns) // want "CarryReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// finish releases what the Namespace carries and removes the finalizer.
func (r *CarryReconciler) finish(ctx context.Context, ns *corev1.Namespace) (ctrl.Result, error) { // want "CarryReconciler/finalizer-cleanup"
	if err := r.release(ctx, ns.Name); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(ns, carryFinalizer) // want "CarryReconciler/finalizer-remove"
	return ctrl.Result{}, r.Update(ctx, ns)
}

// release deletes the ConfigMap carried for a Namespace.
func (r *CarryReconciler) release(ctx context.Context, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name + "-carried", Namespace: "default"}}
	return client.IgnoreNotFound(r.Delete(ctx, cm))
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *CarryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Complete(r)
}

// AccountReconciler cleans up inline: the deletion branch deletes the token
// Secret itself. The Secret's name comes from tokenName, a helper that only
// computes a value: it is not a cleanup function.
type AccountReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or on deletion deletes the token Secret and
// removes it.
func (r *AccountReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "AccountReconciler/reconcile-entry"
	sa := &corev1.ServiceAccount{}
	if err := r.Get(ctx, req.NamespacedName, sa); err != nil { // want "AccountReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !sa.DeletionTimestamp.IsZero() {
		// want-none "AccountReconciler/finalizer-cleanup"
		token := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: tokenName(sa), Namespace: sa.Namespace}}
		if err := r.Delete(ctx, token); client.IgnoreNotFound(err) != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(sa, accountFinalizer) // want "AccountReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, sa)
	}
	if controllerutil.AddFinalizer(sa, accountFinalizer) { // want "AccountReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, sa) // want "AccountReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// tokenName is the name of a ServiceAccount's token Secret.
func tokenName(sa *corev1.ServiceAccount) string {
	return sa.Name + "-token"
}

// SetupWithManager registers the reconciler for ServiceAccounts.
func (r *AccountReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ServiceAccount{}).Complete(r)
}

// retireFinalizer holds a PersistentVolume until it is retired.
const retireFinalizer = "finfall.example.com/retire" // want "RetireReconciler/finalizer-const"

// RetireReconciler runs retire on deletion and on retirement alike. Its one
// call of the tree's (archive) runs only while the volume is not being
// deleted: on the deletion path retire only removes the finalizer, so retire
// is the cleanup, not a carrier of archive.
type RetireReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or retires the volume.
func (r *RetireReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RetireReconciler/reconcile-entry"
	pv := &corev1.PersistentVolume{}
	if err := r.Get(ctx, req.NamespacedName, pv); err != nil { // want "RetireReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !pv.DeletionTimestamp.IsZero() || pv.Labels["retired"] == "true" {
		return ctrl.Result{}, r.retire(ctx, pv)
	}
	if controllerutil.AddFinalizer(pv, retireFinalizer) { // want "RetireReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, pv) // want "RetireReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// retire archives a live volume's claim reference, and removes the
// finalizer.
func (r *RetireReconciler) retire(ctx context.Context, pv *corev1.PersistentVolume) error { // want "RetireReconciler/finalizer-cleanup"
	if pv.DeletionTimestamp.IsZero() && pv.Spec.ClaimRef != nil {
		if err := r.archive(ctx, pv.Spec.ClaimRef.Name); err != nil {
			return err
		}
	}
	controllerutil.RemoveFinalizer(pv, retireFinalizer) // want "RetireReconciler/finalizer-remove"
	return r.Update(ctx, pv)
}

// archive records a retired claim in a ConfigMap.
func (r *RetireReconciler) archive(ctx context.Context, claim string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: claim + "-archived", Namespace: "default"}}
	return client.IgnoreNotFound(r.Create(ctx, cm))
}

// SetupWithManager registers the reconciler for PersistentVolumes.
func (r *RetireReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolume{}).Complete(r)
}
