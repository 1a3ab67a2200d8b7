package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// step is what one step of a pass decides: go on, or end the pass.
type step struct{ done bool }

// proceed is the step that lets the pass go on.
func proceed() step { return step{} }

// finished is the step that ends the pass.
func finished() step { return step{done: true} }

// drainFinalizer holds a Service until its endpoints ConfigMap is gone.
const drainFinalizer = "finguard.example.com/drain" // want "DrainReconciler/finalizer-const"

// DrainReconciler runs drain on every pass; drain tests the deletion
// itself, returning at once when the Service is not being deleted, and its
// body after that test is the deletion branch: drain is the function run
// on it, the cleanup, not the first call it makes.
type DrainReconciler struct {
	client.Client
}

// Reconcile drains a Service being deleted, else adds the finalizer.
func (r *DrainReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DrainReconciler/reconcile-entry"
	svc := &corev1.Service{}
	if err := r.Get(ctx, req.NamespacedName, svc); err != nil { // want "DrainReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if s, err := r.drain(ctx, svc); err != nil || s.done {
		return ctrl.Result{}, err
	}
	if controllerutil.AddFinalizer(svc, drainFinalizer) { // want "DrainReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, svc) // want "DrainReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// drain deletes the Service's endpoints ConfigMap and drops the finalizer
// once the Service is being deleted.
func (r *DrainReconciler) drain(ctx context.Context, svc *corev1.Service) (step, error) { // want "DrainReconciler/finalizer-cleanup"
	if svc.DeletionTimestamp == nil {
		return proceed(), nil
	}
	if err := r.forget(ctx, svc.Name); err != nil {
		return finished(), err
	}
	svc.SetFinalizers(nil) // want "DrainReconciler/finalizer-remove"
	return finished(), r.Update(ctx, svc)
}

// forget deletes the ConfigMap listing a Service's endpoints.
func (r *DrainReconciler) forget(ctx context.Context, name string) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name + "-endpoints", Namespace: "default"}}
	return client.IgnoreNotFound(r.Delete(ctx, cm))
}

// SetupWithManager registers the reconciler for Services.
func (r *DrainReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Complete(r)
}

// sealFinalizer holds a Secret until its copy is gone.
const sealFinalizer = "finguard.example.com/seal" // want "SealReconciler/finalizer-const"

// SealReconciler calls settle on every pass; settle declares what it
// keeps before it tests the deletion and returns nil when the Secret is
// not being deleted: settle is the cleanup, unseal the work it runs.
type SealReconciler struct {
	client.Client
}

// Reconcile settles a Secret being deleted, else adds the finalizer.
func (r *SealReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "SealReconciler/reconcile-entry"
	sec := &corev1.Secret{}
	if err := r.Get(ctx, req.NamespacedName, sec); err != nil { // want "SealReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.settle(ctx, sec); err != nil {
		return ctrl.Result{}, err
	}
	if sec.DeletionTimestamp != nil {
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(sec, sealFinalizer) { // want "SealReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, sec) // want "SealReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// settle runs the Secret's finalizer on deletion, keeping it when unseal
// fails.
func (r *SealReconciler) settle(ctx context.Context, sec *corev1.Secret) error { // want "SealReconciler/finalizer-cleanup"
	var kept []string
	if sec.DeletionTimestamp == nil {
		return nil
	}
	if err := r.unseal(ctx, sec); err != nil {
		kept = append(kept, sealFinalizer)
	}
	sec.SetFinalizers(kept) // want "SealReconciler/finalizer-remove"
	return r.Update(ctx, sec)
}

// unseal deletes the copy of a Secret.
func (r *SealReconciler) unseal(ctx context.Context, sec *corev1.Secret) error {
	cp := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: sec.Name + "-copy", Namespace: sec.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, cp))
}

// SetupWithManager registers the reconciler for Secrets.
func (r *SealReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(r)
}

// lockFinalizer holds a ConfigMap until its lock is released.
const lockFinalizer = "finguard.example.com/lock" // want "LockReconciler/finalizer-const"

// LockReconciler's route tests the deletion too, but its test hands the
// pass to ensure when the ConfigMap is not being deleted: route dispatches
// both paths, so the deletion's work is release, the function the rest of
// route's body calls.
type LockReconciler struct {
	client.Client
}

// Reconcile routes the ConfigMap.
func (r *LockReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "LockReconciler/reconcile-entry"
	cm := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, cm); err != nil { // want "LockReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return ctrl.Result{}, r.route(ctx, cm) // want "LockReconciler/requeue-error"
}

// route ensures a live ConfigMap, or releases a deleted one's lock.
func (r *LockReconciler) route(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.DeletionTimestamp.IsZero() {
		return r.ensure(ctx, cm)
	}
	if err := r.release(ctx, cm); err != nil {
		return err
	}
	controllerutil.RemoveFinalizer(cm, lockFinalizer) // want "LockReconciler/finalizer-remove"
	return r.Update(ctx, cm)
}

// ensure adds the finalizer.
func (r *LockReconciler) ensure(ctx context.Context, cm *corev1.ConfigMap) error {
	if controllerutil.AddFinalizer(cm, lockFinalizer) { // want "LockReconciler/finalizer-add"
		return r.Update(ctx, cm)
	}
	return nil
}

// release deletes the lock ConfigMap.
func (r *LockReconciler) release(ctx context.Context, cm *corev1.ConfigMap) error { // want "LockReconciler/finalizer-cleanup"
	lock := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-lock", Namespace: cm.Namespace}}
	return client.IgnoreNotFound(r.Delete(ctx, lock))
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *LockReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// purgeFinalizer is put on a Pod by its users, never by the controller:
// it holds the Pod until its cache ConfigMap is purged.
const purgeFinalizer = "finguard.example.com/purge" // want "PurgeReconciler/finalizer-const"

// PurgeReconciler runs the purge finalizer users put on a Pod: on
// deletion it purges the cache and sets back the Pod's other finalizers,
// a list its helper filters. No finalizer can be added to an object being
// deleted, so that list set whole on the deletion branch removes one.
type PurgeReconciler struct {
	client.Client
}

// Reconcile purges a Pod being deleted.
func (r *PurgeReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PurgeReconciler/reconcile-entry"
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil { // want "PurgeReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	// want-none "PurgeReconciler/finalizer-add"
	if pod.DeletionTimestamp != nil && controllerutil.ContainsFinalizer(pod, purgeFinalizer) {
		return ctrl.Result{}, r.purge(ctx, pod) // want "PurgeReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// purge deletes the Pod's cache ConfigMap and drops the purge finalizer.
func (r *PurgeReconciler) purge(ctx context.Context, pod *corev1.Pod) error { // want "PurgeReconciler/finalizer-cleanup"
	cache := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-cache", Namespace: pod.Namespace}}
	if err := client.IgnoreNotFound(r.Delete(ctx, cache)); err != nil {
		return err
	}
	pod.SetFinalizers(others(pod.GetFinalizers())) // want "PurgeReconciler/finalizer-remove"
	return r.Update(ctx, pod)
}

// others is the list of finalizers but the purge one.
func others(list []string) []string {
	var out []string
	for _, f := range list {
		if f != purgeFinalizer {
			out = append(out, f)
		}
	}
	return out
}

// SetupWithManager registers the reconciler for Pods.
func (r *PurgeReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}
