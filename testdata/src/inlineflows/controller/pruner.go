package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// staleLabel marks an object the pruner deletes.
const staleLabel = "example.com/stale"

// Pruner deletes the objects of one type marked stale.
type Pruner[T client.Object] struct {
	client.Client
	// New makes an empty object of the type pruned.
	New func() T
}

// Reconcile deletes one object if it is marked stale, in a closure of
// each instance of the generic method.
func (p *Pruner[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "Pruner[Pod]/reconcile-entry"
	obj := p.New()
	if err := p.Get(ctx, req.NamespacedName, obj); err != nil { // want "Pruner[Pod]/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.GetLabels()[staleLabel] == "true" { // want "Pruner[Pod]/drift:compare"
		prune := func() error { return p.Delete(ctx, obj) } // want "Pruner[Pod]/drift:apply"
		if err := prune(); err != nil {
			return ctrl.Result{}, err // want "Pruner[Pod]/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// Setup registers the reconcilers.
func Setup(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(&StampReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Owns(&corev1.Service{}).Complete(&OwnerReconciler{Client: mgr.GetClient(), Team: "platform"}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).
		Complete(&Pruner[*corev1.Pod]{Client: mgr.GetClient(), New: func() *corev1.Pod { return &corev1.Pod{} }})
}
