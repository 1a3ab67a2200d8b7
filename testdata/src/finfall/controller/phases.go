package controller

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// claimFinalizer holds a PersistentVolumeClaim until its snapshot is gone.
const claimFinalizer = "finfall.example.com/snapshot" // want "ClaimReconciler/finalizer-const"

// podFinalizer holds a Pod until its ConfigMap is gone.
const podFinalizer = "finfall.example.com/config" // want "PodReconciler/finalizer-const"

// phase is one step of a claim's reconcile.
type phase func(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error

// wrap names a phase's failure.
func wrap(p phase, msg string) phase {
	return func(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error {
		if err := p(ctx, pvc); err != nil {
			return fmt.Errorf("%s: %w", msg, err)
		}
		return nil
	}
}

// run runs the phases in turn, all of them, joining their errors.
func run(ctx context.Context, pvc *corev1.PersistentVolumeClaim, phases []phase) error {
	var errs []error
	for _, p := range phases {
		errs = append(errs, p(ctx, pvc))
	}
	return errors.Join(errs...)
}

// ClaimReconciler runs its work as a list of phases; on deletion the list
// ends with the phase that deletes the snapshot and lets the claim go.
type ClaimReconciler struct {
	client.Client
}

// Reconcile runs the claim's phases.
func (r *ClaimReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "ClaimReconciler/reconcile-entry"
	pvc := &corev1.PersistentVolumeClaim{}
	if err := r.Get(ctx, req.NamespacedName, pvc); err != nil { // want "ClaimReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	always := []phase{
		wrap(r.check, "check"), // decoy: finalizer-cleanup (runs on both paths)
	}
	if !pvc.DeletionTimestamp.IsZero() {
		onDelete := append(always, wrap(r.release, "release"))
		return ctrl.Result{}, run(ctx, pvc, onDelete)
	}
	if controllerutil.AddFinalizer(pvc, claimFinalizer) { // want "ClaimReconciler/finalizer-add"
		if err := r.Update(ctx, pvc); err != nil {
			return ctrl.Result{}, err
		}
	}
	return ctrl.Result{}, run(ctx, pvc, always) // want "ClaimReconciler/requeue-error"
}

// check refuses a claim with no storage class.
func (r *ClaimReconciler) check(_ context.Context, pvc *corev1.PersistentVolumeClaim) error {
	if pvc.Spec.StorageClassName == nil {
		return errors.New("no storage class")
	}
	return nil
}

// release deletes the claim's snapshot ConfigMap, then the finalizer.
func (r *ClaimReconciler) release(ctx context.Context, pvc *corev1.PersistentVolumeClaim) error { // want "ClaimReconciler/finalizer-cleanup"
	cm := &corev1.ConfigMap{}
	cm.Name, cm.Namespace = pvc.Name+"-snapshot", pvc.Namespace
	if err := r.Delete(ctx, cm); client.IgnoreNotFound(err) != nil {
		return err
	}
	controllerutil.RemoveFinalizer(pvc, claimFinalizer) // want "ClaimReconciler/finalizer-remove"
	return r.Update(ctx, pvc)
}

// SetupWithManager registers the reconciler for PersistentVolumeClaims.
func (r *ClaimReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.PersistentVolumeClaim{}).Complete(r)
}

// PodReconciler hands its cleanup to a runner that retries it.
type PodReconciler struct {
	client.Client
}

// Reconcile adds the finalizer, or on deletion runs the cleanup with retries.
func (r *PodReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PodReconciler/reconcile-entry"
	pod := &corev1.Pod{}
	if err := r.Get(ctx, req.NamespacedName, pod); err != nil { // want "PodReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if pod.DeletionTimestamp != nil {
		return ctrl.Result{}, retry(3, func() error { return r.cleanup(ctx, pod) })
	}
	if controllerutil.AddFinalizer(pod, podFinalizer) { // want "PodReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, pod) // want "PodReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// retry runs f up to n times until it succeeds.
func retry(n int, f func() error) error {
	var err error
	for range n {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// cleanup deletes the Pod's ConfigMap, then the finalizer.
func (r *PodReconciler) cleanup(ctx context.Context, pod *corev1.Pod) error { // want "PodReconciler/finalizer-cleanup"
	cm := &corev1.ConfigMap{}
	cm.Name, cm.Namespace = pod.Name+"-config", pod.Namespace
	if err := r.Delete(ctx, cm); client.IgnoreNotFound(err) != nil {
		return err
	}
	controllerutil.RemoveFinalizer(pod, podFinalizer) // want "PodReconciler/finalizer-remove"
	return r.Update(ctx, pod)
}

// SetupWithManager registers the reconciler for Pods.
func (r *PodReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Pod{}).Complete(r)
}
