package controller

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "TrackerReconciler/finalizer-const" "TrackerReconciler/finalizer-add" "TrackerReconciler/finalizer-remove"
// want-none "TrackerReconciler/condition-types" "TrackerReconciler/requeue-success" "TrackerReconciler/interval-trace" "TrackerReconciler/drift"

// TrackerReconciler tracks the Secrets it has seen by key. It keeps no
// finalizer; on a Secret's deletion it drops the key from its tracker: a
// call handed only the key, which changes the controller's own state, the
// cleanup.
type TrackerReconciler struct {
	client.Client
	seen tracker
}

// tracker remembers keys.
type tracker struct {
	mu   sync.Mutex
	keys map[string]bool
}

// forget drops a key.
func (t *tracker) forget(key string) { // want "TrackerReconciler/finalizer-cleanup"
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.keys, key)
}

// Reconcile tracks one Secret.
func (r *TrackerReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TrackerReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "TrackerReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err) // want "TrackerReconciler/requeue-error"
	}
	if s.DeletionTimestamp != nil {
		r.seen.forget(req.String())
		return ctrl.Result{}, nil
	}
	r.seen.mu.Lock()
	defer r.seen.mu.Unlock()
	r.seen.keys[req.String()] = true
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Secrets.
func (r *TrackerReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Named("tracker").Complete(r)
}
