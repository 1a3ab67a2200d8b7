// Package controller holds reconcilers whose results, intervals and
// finalizers are made away from where they act: a result built by a method,
// named results returned bare, a result builder run in a deferred closure,
// and finalizers added by a helper next to a child's own finalizer.
package controller

import (
	"context"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	valuev1 "example.com/fixtures/valueflow/api/v1"
)

// want-none "MirrorReconciler/condition-types" "MirrorReconciler/drift"

// volumeFinalizer holds a Mirror's PersistentVolumeClaim until the Mirror
// has let go of it: a child's finalizer, not the Mirror's.
const volumeFinalizer = "mirror.valueflow.example.com/volume"

// MirrorReconciler copies a ConfigMap into a Mirror's volume.
type MirrorReconciler struct {
	client.Client
	// DefaultRefresh is the interval of a Mirror that sets none.
	DefaultRefresh time.Duration // want "MirrorReconciler/trace:controller-field"
}

// Reconcile refreshes one Mirror.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	obj := &valuev1.Mirror{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if obj.DeletionTimestamp != nil && obj.Status.LastRefresh.IsZero() {
		// decoy: a deletion branch that only logs; the one below cleans up
		log.FromContext(ctx).Info("deleting a Mirror that never refreshed")
	}
	if !obj.DeletionTimestamp.IsZero() {
		if err := r.finalize(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.dropFinalizers(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, nil
	}
	if err := r.ensureVolume(ctx, obj); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.addFinalizers(ctx, obj); err != nil {
		return ctrl.Result{}, err
	}
	obj.Status.LastRefresh = metav1.Now()
	if err := r.Status().Update(ctx, obj); err != nil { // want "MirrorReconciler/write-always" "MirrorReconciler/hot-loop"
		return ctrl.Result{}, err // want "MirrorReconciler/requeue-error"
	}
	return r.requeueResult(obj), nil // want "MirrorReconciler/requeue-success" "MirrorReconciler/trace:return"
}

// requeueResult requeues when the next refresh is due: the Mirror's
// interval (or the controller's default) less the time since the last one.
func (r *MirrorReconciler) requeueResult(obj *valuev1.Mirror) ctrl.Result { // want "MirrorReconciler/trace:getter"
	interval := r.DefaultRefresh
	if obj.Spec.RefreshInterval.Duration > 0 {
		interval = obj.Spec.RefreshInterval.Duration
	}
	wait := interval - time.Since(obj.Status.LastRefresh.Time)
	return ctrl.Result{RequeueAfter: wait} // want "MirrorReconciler/trace:getter-body"
}

// volumeKey names the Mirror's PersistentVolumeClaim.
func volumeKey(obj *valuev1.Mirror) types.NamespacedName {
	return types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name + "-data"}
}

// ensureVolume creates the Mirror's PersistentVolumeClaim, holding it with
// a finalizer of its own.
func (r *MirrorReconciler) ensureVolume(ctx context.Context, obj *valuev1.Mirror) error {
	pvc := &corev1.PersistentVolumeClaim{}
	err := r.Get(ctx, volumeKey(obj), pvc)
	if !apierrors.IsNotFound(err) {
		return err
	}
	key := volumeKey(obj)
	pvc = &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	controllerutil.AddFinalizer(pvc, volumeFinalizer)
	return r.Create(ctx, pvc)
}

// addFinalizers adds the Mirror's two finalizers.
func (r *MirrorReconciler) addFinalizers(ctx context.Context, obj *valuev1.Mirror) error {
	changed := addFinalizer(obj, valuev1.MirrorFinalizer)
	changed = addFinalizer(obj, valuev1.ExportFinalizer) || changed
	if !changed {
		return nil
	}
	return r.Update(ctx, obj)
}

// addFinalizer adds one finalizer to a Mirror, saying whether it was missing.
func addFinalizer(obj *valuev1.Mirror, name string) bool {
	if slices.Contains(obj.Finalizers, name) {
		return false
	}
	obj.Finalizers = append(obj.Finalizers, name) // want "MirrorReconciler/finalizer-add"
	return true
}

// finalize lets go of the Mirror's volume: the volume's own finalizer goes,
// then the volume.
func (r *MirrorReconciler) finalize(ctx context.Context, obj *valuev1.Mirror) error { // want "MirrorReconciler/finalizer-cleanup"
	pvc := &corev1.PersistentVolumeClaim{}
	if err := r.Get(ctx, volumeKey(obj), pvc); err != nil {
		return client.IgnoreNotFound(err)
	}
	if controllerutil.RemoveFinalizer(pvc, volumeFinalizer) {
		if err := r.Update(ctx, pvc); err != nil {
			return err
		}
	}
	return client.IgnoreNotFound(r.Delete(ctx, pvc))
}

// dropFinalizers removes the Mirror's own finalizers once its cleanup is done.
func (r *MirrorReconciler) dropFinalizers(ctx context.Context, obj *valuev1.Mirror) error {
	obj.Finalizers = slices.DeleteFunc(obj.Finalizers, func(f string) bool { // want "MirrorReconciler/finalizer-remove"
		return f == valuev1.MirrorFinalizer || f == valuev1.ExportFinalizer
	})
	return r.Update(ctx, obj)
}

// SetupWithManager registers the reconciler for Mirrors.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&valuev1.Mirror{}).Owns(&corev1.PersistentVolumeClaim{}).Complete(r)
}
