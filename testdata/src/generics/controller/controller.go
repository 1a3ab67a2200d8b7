// Package controller holds a generic reconciler, instantiated for Secrets,
// that reads through a generic helper; and a ConfigMap reconciler that
// adds its finalizer in a method handed to a retry helper as a value.
package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "requeue-success" "interval-trace" "condition-types"
// want-none "LabelReconciler/drift"
// want-none "Pruner[Secret]/finalizer-const" "Pruner[Secret]/finalizer-add" "Pruner[Secret]/finalizer-cleanup" "Pruner[Secret]/finalizer-remove"

const (
	// staleLabel marks an object the pruner deletes.
	staleLabel = "example.com/stale"
	// cmFinalizer guards a labelled ConfigMap.
	cmFinalizer = "example.com/labelled" // want "LabelReconciler/finalizer-const"
)

// Pruner deletes the objects of one type marked stale.
type Pruner[T client.Object] struct {
	client.Client
	// New makes an empty object of the type pruned.
	New func() T
}

// Reconcile deletes one object if it is marked stale.
func (p *Pruner[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "Pruner[Secret]/reconcile-entry"
	obj := p.New()
	if err := fetch(ctx, p.Client, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.GetLabels()[staleLabel] == "true" { // want "Pruner[Secret]/drift:compare"
		if err := p.Delete(ctx, obj); err != nil { // want "Pruner[Secret]/drift:apply"
			return ctrl.Result{}, err // want "Pruner[Secret]/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// fetch reads an object of any type by its key.
func fetch[T client.Object](ctx context.Context, c client.Reader, key types.NamespacedName, obj T) error {
	return c.Get(ctx, key, obj) // want "Pruner[Secret]/reread"
}

// LabelReconciler guards ConfigMaps with a finalizer.
type LabelReconciler struct {
	client.Client
}

// Reconcile adds the finalizer to one ConfigMap, or removes it once the
// ConfigMap is being deleted.
func (r *LabelReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LabelReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "LabelReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !cm.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.finalize(ctx, &cm)
	}
	l := &labeller{ctx: ctx, c: r.Client, cm: &cm}
	if err := retry.RetryOnConflict(retry.DefaultRetry, l.apply); err != nil {
		return ctrl.Result{}, err // want "LabelReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// labeller adds the finalizer to one ConfigMap.
type labeller struct {
	ctx context.Context
	c   client.Client
	cm  *corev1.ConfigMap
}

// apply adds the finalizer and writes the ConfigMap, when it lacks it.
func (l *labeller) apply() error {
	if controllerutil.AddFinalizer(l.cm, cmFinalizer) { // want "LabelReconciler/finalizer-add"
		return l.c.Update(l.ctx, l.cm)
	}
	return nil
}

// finalize removes the finalizer from a ConfigMap being deleted.
func (r *LabelReconciler) finalize(ctx context.Context, cm *corev1.ConfigMap) error { // want "LabelReconciler/finalizer-cleanup"
	controllerutil.RemoveFinalizer(cm, cmFinalizer) // want "LabelReconciler/finalizer-remove"
	return r.Update(ctx, cm)
}

// Setup registers both reconcilers.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).
		Complete(&Pruner[*corev1.Secret]{Client: mgr.GetClient(), New: func() *corev1.Secret { return &corev1.Secret{} }}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&LabelReconciler{Client: mgr.GetClient()})
}
