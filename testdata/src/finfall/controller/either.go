package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "HandoffReconciler/finalizer-cleanup" "HandoffReconciler/finalizer-remove"

// guardFinalizer holds a Secret until its guard ConfigMap is released.
const guardFinalizer = "finfall.example.com/guard" // want "EitherReconciler/finalizer-const"

// handoffFinalizer holds a ConfigMap until another component, not this
// controller, has handed its data over and removed it.
const handoffFinalizer = "finfall.example.com/handoff" // want "HandoffReconciler/finalizer-const"

// EitherReconciler syncs a Secret with its guard ConfigMap. The entry
// hands the Secret on when the ConfigMap was read, or when the Secret is
// being deleted (the ConfigMap may be gone then): a branch the Secret takes
// whether it is being deleted or not, whose sync tests the deletion again.
type EitherReconciler struct {
	client.Client
}

// Reconcile reads the Secret and its guard, and syncs them.
func (r *EitherReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "EitherReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "EitherReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	var guard corev1.ConfigMap
	err := r.Get(ctx, types.NamespacedName{Namespace: s.Namespace, Name: s.Name + "-guard"}, &guard)
	if err != nil && !apierrors.IsNotFound(err) {
		return ctrl.Result{}, err
	}
	if err == nil || s.DeletionTimestamp != nil {
		return ctrl.Result{}, r.sync(ctx, &s) // want "EitherReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// sync removes the finalizer of a Secret being deleted, and adds it to
// one that is not.
func (r *EitherReconciler) sync(ctx context.Context, s *corev1.Secret) error {
	if s.DeletionTimestamp != nil {
		return r.release(ctx, s)
	}
	if controllerutil.AddFinalizer(s, guardFinalizer) { // want "EitherReconciler/finalizer-add"
		return r.Update(ctx, s)
	}
	return nil
}

// release lets the Secret go.
func (r *EitherReconciler) release(ctx context.Context, s *corev1.Secret) error { // want "EitherReconciler/finalizer-cleanup"
	if controllerutil.RemoveFinalizer(s, guardFinalizer) { // want "EitherReconciler/finalizer-remove"
		return r.Update(ctx, s)
	}
	return nil
}

// HandoffReconciler puts a finalizer on ConfigMaps that another component
// removes; when the ConfigMap's Secret is being deleted it labels the
// ConfigMap for that component. The branch is on the Secret's deletion,
// not the ConfigMap's: this controller has no deletion branch of its own.
type HandoffReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, and labels the ConfigMap when its Secret
// goes.
func (r *HandoffReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HandoffReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "HandoffReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp == nil && controllerutil.AddFinalizer(&cm, handoffFinalizer) { // want "HandoffReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &cm)
	}
	var owner corev1.Secret
	if err := r.Get(ctx, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}, &owner); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if secretGoing(&owner) {
		return ctrl.Result{}, r.markHandoff(ctx, &cm) // want "HandoffReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// secretGoing reports whether a Secret is being deleted.
func secretGoing(s *corev1.Secret) bool {
	return s.DeletionTimestamp != nil
}

// markHandoff labels the ConfigMap for the component that removes its
// finalizer.
func (r *HandoffReconciler) markHandoff(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["finfall.example.com/handoff"] = "ready"
	return r.Update(ctx, cm)
}

// SetupEither registers the reconcilers for Secrets and ConfigMaps.
func SetupEither(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("either").Complete(&EitherReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("handoff").Complete(&HandoffReconciler{Client: mgr.GetClient()})
}
