package controller

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// Three deletion branches whose first call is not plainly the cleanup.

const (
	backupFinalizer  = "finbranches.example.com/backup"
	exportFinalizer  = "finbranches.example.com/export"  // want "ShardReconciler/finalizer-const"
	releaseFinalizer = "finbranches.example.com/release" // want "MonitorReconciler/finalizer-const" "ShortcutReconciler/finalizer-const"
)

// want-none "ShardReconciler/condition-types" "ShardReconciler/requeue-success" "ShardReconciler/interval-trace" "ShardReconciler/drift"

// ShardReconciler runs one cleanup per finalizer its ConfigMaps carry:
// which is the finalizer's cleanup depends on the finalizer.
type ShardReconciler struct {
	client.Client
}

// want-none "ShardReconciler/finalizer-cleanup" "ShardReconciler/finalizer-const" "ShardReconciler/finalizer-add"

// Reconcile runs, on deletion, the cleanup of each finalizer the user put
// on the ConfigMap, in its case of a switch over the object's finalizers.
func (r *ShardReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ShardReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "ShardReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if cm.DeletionTimestamp != nil {
		var keep []string
		for _, f := range cm.Finalizers {
			var err error
			switch f {
			case backupFinalizer:
				err = r.dropBackup(ctx, &cm)
			case exportFinalizer:
				err = r.dropExport(ctx, &cm)
			}
			if err != nil {
				keep = append(keep, f)
			}
		}
		cm.SetFinalizers(keep)                   // want "ShardReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &cm) // want "ShardReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// dropBackup deletes the backup copy of a ConfigMap.
func (r *ShardReconciler) dropBackup(ctx context.Context, cm *corev1.ConfigMap) error {
	return client.IgnoreNotFound(r.Delete(ctx, &corev1.ConfigMap{ObjectMeta: backupMeta(cm)}))
}

// dropExport deletes the exported Secret of a ConfigMap.
func (r *ShardReconciler) dropExport(ctx context.Context, cm *corev1.ConfigMap) error {
	return client.IgnoreNotFound(r.Delete(ctx, &corev1.Secret{ObjectMeta: backupMeta(cm)}))
}

// want-none "MonitorReconciler/condition-types" "MonitorReconciler/requeue-success" "MonitorReconciler/interval-trace" "MonitorReconciler/drift"

// MonitorReconciler watches each Secret it holds; on deletion it stops the
// watch (which cannot fail) and then releases the Secret's volume, whose
// failure keeps the finalizer.
type MonitorReconciler struct {
	client.Client
	mu       sync.Mutex
	monitors map[string]context.CancelFunc
}

// Reconcile holds a Secret with the release finalizer.
func (r *MonitorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MonitorReconciler/reconcile-entry"
	var s corev1.Secret
	if err := r.Get(ctx, req.NamespacedName, &s); err != nil { // want "MonitorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !s.DeletionTimestamp.IsZero() {
		r.stopMonitor(&s)
		if err := r.release(ctx, &s); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&s, releaseFinalizer) // want "MonitorReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &s)
	}
	if controllerutil.AddFinalizer(&s, releaseFinalizer) { // want "MonitorReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &s) // want "MonitorReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// stopMonitor cancels the watch kept for a Secret.
func (r *MonitorReconciler) stopMonitor(s *corev1.Secret) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cancel, ok := r.monitors[s.Name]; ok {
		cancel()
		delete(r.monitors, s.Name)
	}
}

// release deletes the claim a Secret's volume was bound by.
func (r *MonitorReconciler) release(ctx context.Context, s *corev1.Secret) error { // want "MonitorReconciler/finalizer-cleanup"
	claim := &corev1.PersistentVolumeClaim{}
	claim.Namespace, claim.Name = s.Namespace, s.Name+"-data"
	return client.IgnoreNotFound(r.Delete(ctx, claim))
}

// want-none "ShortcutReconciler/condition-types" "ShortcutReconciler/requeue-success" "ShortcutReconciler/interval-trace" "ShortcutReconciler/drift"

// ShortcutReconciler drops the finalizer of a claim at once while its
// storage is not ready (nothing to clean up yet); otherwise it purges the
// claim's snapshots first.
type ShortcutReconciler struct {
	client.Client
	ready func() bool
	seen  map[string]bool
}

// Reconcile holds a PersistentVolumeClaim with the release finalizer.
func (r *ShortcutReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ShortcutReconciler/reconcile-entry"
	var pvc corev1.PersistentVolumeClaim
	if err := r.Get(ctx, req.NamespacedName, &pvc); err != nil { // want "ShortcutReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if controllerutil.AddFinalizer(&pvc, releaseFinalizer) { // want "ShortcutReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &pvc)
	}
	if !r.ready() {
		if !pvc.DeletionTimestamp.IsZero() {
			r.forget(&pvc)
			controllerutil.RemoveFinalizer(&pvc, releaseFinalizer)
			return ctrl.Result{}, r.Update(ctx, &pvc)
		}
		return ctrl.Result{}, nil
	}
	if !pvc.DeletionTimestamp.IsZero() {
		if err := r.purge(ctx, &pvc); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&pvc, releaseFinalizer) // want "ShortcutReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &pvc)              // want "ShortcutReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// forget drops what the reconciler remembers of a claim.
func (r *ShortcutReconciler) forget(pvc *corev1.PersistentVolumeClaim) {
	delete(r.seen, pvc.Name)
}

// purge deletes the snapshots taken of a claim.
func (r *ShortcutReconciler) purge(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error { // want "ShortcutReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace(pvc.Namespace), client.MatchingLabels{"snapshot-of": pvc.Name})
}

// SetupWithManager registers the three reconcilers with the manager.
func SetupWithManager(mgr ctrl.Manager) error {
	if err := ctrl.NewControllerManagedBy(mgr).Named("shard").For(&corev1.ConfigMap{}).Complete(&ShardReconciler{Client: mgr.GetClient()}); err != nil {
		return err
	}
	if err := ctrl.NewControllerManagedBy(mgr).Named("monitor").For(&corev1.Secret{}).Complete(&MonitorReconciler{Client: mgr.GetClient(), monitors: map[string]context.CancelFunc{}}); err != nil {
		return err
	}
	return ctrl.NewControllerManagedBy(mgr).Named("shortcut").For(&corev1.PersistentVolumeClaim{}).Complete(&ShortcutReconciler{Client: mgr.GetClient(), ready: func() bool { return true }, seen: map[string]bool{}})
}

// backupMeta names the copy kept of a ConfigMap.
func backupMeta(cm *corev1.ConfigMap) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name + "-backup"}
}
