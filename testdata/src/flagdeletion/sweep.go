// Package flagdeletion holds a reconciler with no finalizer whose deletion
// branch tests a flag assigned twice (the object gone, or being deleted),
// whose first call cannot fail (a record dropped from memory) and whose
// last logs the object through an interface of its metadata (which only
// computes): the call between them, whose failure the branch reports, may
// be the work as well as the first, so the cleanup is not settled, naming
// both, never none.
package flagdeletion

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// seen remembers the ConfigMaps stamped so far.
type seen struct {
	mu   sync.Mutex
	keys map[types.NamespacedName]bool
}

// forget drops a key.
func (s *seen) forget(key types.NamespacedName) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.keys, key)
}

// named is what the log line needs of an object.
type named interface{ GetName() string }

// logger logs what the sweep does.
var logger = ctrl.Log.WithName("sweep")

// logGone says an object went away.
func logGone(o named) {
	logger.Info("gone", "name", o.GetName())
}

// SweepReconciler stamps each ConfigMap and, when one goes, deletes the
// Secret stamped for it.
type SweepReconciler struct {
	client.Client
	seen *seen
}

// Reconcile stamps the ConfigMap, or sweeps up after it.
func (r *SweepReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	gone := false
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		gone = true
	}
	gone = gone || !cm.DeletionTimestamp.IsZero()
	if gone {
		r.seen.forget(req.NamespacedName)
		if err := r.purge(ctx, req.NamespacedName); err != nil {
			return ctrl.Result{}, err
		}
		logGone(&cm)
		return ctrl.Result{}, nil
	}
	if cm.Annotations["stamped"] == "yes" { // want "drift:compare"
		return ctrl.Result{}, nil
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["stamped"] = "yes"
	if err := r.Update(ctx, &cm); err != nil { // want "drift:apply"
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// purge deletes the Secret stamped for a ConfigMap.
func (r *SweepReconciler) purge(ctx context.Context, key types.NamespacedName) error {
	s := &corev1.Secret{}
	s.Namespace, s.Name = key.Namespace, key.Name+"-stamp"
	return client.IgnoreNotFound(r.Delete(ctx, s))
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *SweepReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
