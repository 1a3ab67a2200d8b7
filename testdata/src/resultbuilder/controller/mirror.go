// Package controller holds a reconciler whose result is built by a helper
// behind an interface, in a deferred function, the way some Flux
// controllers build theirs: no return of its own says whether a success
// requeues, so the answer is not settled by what ctrlcmp follows. Nor is the
// requeue on error: the deferred function sets the results every return
// after it hands back, so the main work's failure comes back through the
// builder, not through the failed re-read before the defer.
package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "requeue-error" "interval-trace" "drift"

// ResultBuilder turns the outcome of a pass into the controller's result.
type ResultBuilder interface {
	Build(synced bool, err error) (ctrl.Result, error)
}

// IntervalBuilder requeues a synced object after a fixed interval.
type IntervalBuilder struct {
	Every time.Duration
}

// Build implements ResultBuilder.
func (b IntervalBuilder) Build(synced bool, err error) (ctrl.Result, error) {
	if err != nil {
		return ctrl.Result{}, err
	}
	if !synced {
		return ctrl.Result{Requeue: true}, nil
	}
	return ctrl.Result{RequeueAfter: b.Every}, nil
}

// MirrorReconciler checks that ConfigMaps carry data.
type MirrorReconciler struct {
	client.Client
	Builder ResultBuilder
}

// Reconcile checks one ConfigMap; the deferred builder decides the result.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	synced := false
	defer func() {
		result, retErr = r.Builder.Build(synced, retErr)
	}()
	synced = len(cm.Data) > 0
	cm.Annotations = map[string]string{"mirror.example.com/checked": time.Now().Format(time.RFC3339)}
	if err := r.Update(ctx, cm); err != nil { // want "write-always" "hot-loop"
		return result, err
	}
	return result, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
