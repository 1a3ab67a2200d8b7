// Package controller holds a reconciler that keeps its finalizer on a
// ConfigMap by server-side apply: the finalizer is added by applying a
// configuration that lists it, and dropped by applying one without it.
package controller

import (
	"context"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// cacheFinalizer keeps a ConfigMap until its cache Secret is gone.
const cacheFinalizer = "finapply.example.com/cache" // want "finalizer-const"

// secretFinalizer is the cache Secret's own finalizer: a child's, never
// the ConfigMap's.
const secretFinalizer = "finapply.example.com/secret-guard"

// retiredLabel marks a ConfigMap whose cache is no longer wanted.
const retiredLabel = "finapply.example.com/retired"

// fieldManager owns the fields this controller applies.
const fieldManager = "finapply"

// finalizerApplier sets the finalizers this field manager owns.
type finalizerApplier interface {
	applyFinalizers(ctx context.Context, cm *corev1.ConfigMap, finalizers []string) error
}

// ssaApplier applies the finalizer list with server-side apply: the
// finalizers the field manager applied before and leaves out now are
// dropped.
type ssaApplier struct {
	cs kubernetes.Interface
}

func (s *ssaApplier) applyFinalizers(ctx context.Context, cm *corev1.ConfigMap, finalizers []string) error {
	ac := corev1ac.ConfigMap(cm.Name, cm.Namespace).
		WithUID(cm.UID).
		WithFinalizers(finalizers...)
	_, err := s.cs.CoreV1().ConfigMaps(cm.Namespace).Apply(ctx, ac, metav1.ApplyOptions{FieldManager: fieldManager, Force: true})
	return err
}

// CacheReconciler keeps a cache Secret per ConfigMap.
type CacheReconciler struct {
	client.Client
	finalizerApplier
	cs kubernetes.Interface
}

// Reconcile makes the cache Secret of one ConfigMap, or removes it.
func (r *CacheReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	finished := !cm.DeletionTimestamp.IsZero() || cm.Labels[retiredLabel] == "true"
	if finished {
		if slices.Contains(cm.Finalizers, cacheFinalizer) {
			if err := r.dropCache(ctx, &cm); err != nil {
				return ctrl.Result{}, err
			}
			return ctrl.Result{}, r.applyFinalizers(ctx, &cm, nil) // want "finalizer-remove"
		}
		return ctrl.Result{}, nil
	}
	if !slices.Contains(cm.Finalizers, cacheFinalizer) {
		return ctrl.Result{}, r.applyFinalizers(ctx, &cm, []string{cacheFinalizer}) // want "finalizer-add"
	}
	secret := corev1ac.Secret(cm.Name+"-cache", cm.Namespace).
		WithFinalizers(secretFinalizer).
		WithStringData(cm.Data)
	if _, err := r.cs.CoreV1().Secrets(cm.Namespace).Apply(ctx, secret, metav1.ApplyOptions{FieldManager: fieldManager, Force: true}); err != nil { // want "write-always"
		return ctrl.Result{}, err // want "requeue-error"
	}
	return ctrl.Result{}, nil
}

// dropCache deletes the cache Secret of a ConfigMap.
func (r *CacheReconciler) dropCache(ctx context.Context, cm *corev1.ConfigMap) error { // want "finalizer-cleanup"
	return r.cs.CoreV1().Secrets(cm.Namespace).Delete(ctx, cm.Name+"-cache", metav1.DeleteOptions{})
}

// SetupWithManager registers the reconciler for ConfigMaps.
func SetupWithManager(mgr ctrl.Manager, cs kubernetes.Interface) error {
	r := &CacheReconciler{Client: mgr.GetClient(), finalizerApplier: &ssaApplier{cs: cs}, cs: cs}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Named("cache").Complete(r)
}
