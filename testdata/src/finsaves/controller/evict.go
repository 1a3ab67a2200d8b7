package controller

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "EvictReconciler/condition-types" "EvictReconciler/requeue-success" "EvictReconciler/interval-trace" "EvictReconciler/drift"

const evictFinalizer = "saves.example.com/evict" // want "EvictReconciler/finalizer-const"

// EvictReconciler keeps what it read of each Secret in memory; a deleted
// one is let go through a helper that drops the finalizer and saves, and
// only then evicted: whether the eviction is the cleanup is not settled.
type EvictReconciler struct {
	client.Client
	mu   sync.Mutex
	kept map[types.NamespacedName]int
}

// SetupWithManager registers the reconciler for Secrets.
func (r *EvictReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.kept = map[types.NamespacedName]int{}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// release drops the finalizer and saves the Secret.
func (r *EvictReconciler) release(ctx context.Context, s *corev1.Secret) error {
	if !controllerutil.ContainsFinalizer(s, evictFinalizer) {
		return nil
	}
	controllerutil.RemoveFinalizer(s, evictFinalizer) // want "EvictReconciler/finalizer-remove"
	return r.Update(ctx, s)
}

// evict forgets what was kept of a Secret.
func (r *EvictReconciler) evict(key types.NamespacedName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.kept, key)
}

// Reconcile keeps the Secret's size, or lets it go on deletion.
func (r *EvictReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "EvictReconciler/reconcile-entry"
	s := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, s); err != nil { // want "EvictReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !s.DeletionTimestamp.IsZero() {
		// want-none "EvictReconciler/finalizer-cleanup"
		if err := r.release(ctx, s); err != nil {
			return ctrl.Result{}, err
		}
		r.evict(req.NamespacedName)
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(s, evictFinalizer) { // want "EvictReconciler/finalizer-add"
		if err := r.Update(ctx, s); err != nil {
			return ctrl.Result{}, err // want "EvictReconciler/requeue-error"
		}
	}
	r.mu.Lock()
	r.kept[req.NamespacedName] = len(s.Data)
	r.mu.Unlock()
	return ctrl.Result{}, nil
}
