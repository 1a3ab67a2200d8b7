// Package controller holds the Bundle reconciler.
package controller

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kerrors "k8s.io/apimachinery/pkg/util/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/fluxcd/pkg/apis/meta"
	"github.com/fluxcd/pkg/runtime/conditions"
	"github.com/fluxcd/pkg/runtime/jitter"
	"github.com/fluxcd/pkg/runtime/patch"

	bundlev1 "example.com/fixtures/flux/api/v1"
)

// +kubebuilder:rbac:groups=example.com,resources=bundles,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=example.com,resources=bundles/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=example.com,resources=bundles/finalizers,verbs=get;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;create;update;patch;delete

// BundleReconciler reconciles a Bundle object.
type BundleReconciler struct {
	client.Client

	ControllerName string
}

// Reconcile renders a Bundle into its ConfigMap and reports the outcome in
// the Bundle's status, which is patched on every return.
func (r *BundleReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "reconcile-entry"
	log := ctrl.LoggerFrom(ctx)

	obj := &bundlev1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}

	// Initialize the patcher with the object as it was read.
	patcher := patch.NewSerialPatcher(obj, r.Client)

	// Record the outcome of this pass, whatever it was.
	defer func() {
		if err := r.finalizeStatus(ctx, obj, patcher); err != nil {
			retErr = kerrors.NewAggregate([]error{retErr, err})
		}
	}()

	if !obj.ObjectMeta.DeletionTimestamp.IsZero() {
		return r.finalize(ctx, obj)
	}

	// Add the finalizer first, so a delete racing with the first pass still
	// goes through finalize.
	if !controllerutil.ContainsFinalizer(obj, bundlev1.BundleFinalizer) {
		controllerutil.AddFinalizer(obj, bundlev1.BundleFinalizer) // want "finalizer-add"
		return ctrl.Result{Requeue: true}, nil
	}

	if obj.Spec.Suspend {
		log.Info("Reconciliation is suspended for this object")
		return ctrl.Result{}, nil
	}

	if obj.Spec.Interval.Duration <= 0 {
		err := fmt.Errorf("spec.interval must be positive, got %s", obj.Spec.Interval.Duration)
		conditions.MarkStalled(obj, bundlev1.InvalidSpecReason, "%s", err) // want "condition-type:Stalled" "condition-set:Stalled"
		conditions.MarkFalse(obj, meta.ReadyCondition, bundlev1.InvalidSpecReason, "%s", err)
		return ctrl.Result{}, reconcile.TerminalError(err)
	}

	conditions.MarkReconciling(obj, meta.ProgressingReason, "Reconciliation in progress") // want "condition-type:Reconciling" "condition-set:Reconciling"

	reconcileErr := r.reconcile(ctx, obj)
	if reconcileErr != nil {
		log.Error(reconcileErr, "Reconciliation failed", "retryAfter", obj.GetRetryInterval().String())
		return ctrl.Result{RequeueAfter: obj.GetRetryInterval()}, nil // want "requeue-error"
	}

	log.Info("Reconciliation finished", "next", obj.GetRequeueAfter().String())
	return ctrl.Result{RequeueAfter: jitter.JitteredIntervalDuration(obj.GetRequeueAfter())}, nil // want "requeue-success" "trace:return"
}

// reconcile creates or updates the Bundle's ConfigMap.
func (r *BundleReconciler) reconcile(ctx context.Context, obj *bundlev1.Bundle) error {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: obj.Name, Namespace: obj.Namespace}}
	op, err := controllerutil.CreateOrUpdate(ctx, r.Client, cm, func() error { // want "drift:apply"
		cm.Data = maps.Clone(obj.Spec.Entries)
		return controllerutil.SetControllerReference(obj, cm, r.Scheme())
	})
	if err != nil {
		conditions.MarkFalse(obj, meta.ReadyCondition, meta.ReconciliationFailedReason, "applying ConfigMap failed: %s", err)
		return err
	}

	conditions.Delete(obj, meta.StalledCondition)
	conditions.MarkTrue(obj, meta.ReadyCondition, meta.ReconciliationSucceededReason, "ConfigMap %s", op) // want "condition-type:Ready" "condition-set:Ready"
	return nil
}

// finalize deletes the Bundle's ConfigMap and releases the Bundle.
func (r *BundleReconciler) finalize(ctx context.Context, obj *bundlev1.Bundle) (ctrl.Result, error) { // want "finalizer-cleanup"
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: obj.Name, Namespace: obj.Namespace}}
	if err := r.Delete(ctx, cm); client.IgnoreNotFound(err) != nil {
		return ctrl.Result{}, err
	}

	// The deferred patch in Reconcile persists the removal.
	controllerutil.RemoveFinalizer(obj, bundlev1.BundleFinalizer) // want "finalizer-remove"
	return ctrl.Result{}, nil
}

// finalizeStatus settles the conditions of this pass and patches the object.
func (r *BundleReconciler) finalizeStatus(ctx context.Context, obj *bundlev1.Bundle, patcher *patch.SerialPatcher) error {
	if conditions.IsReady(obj) {
		conditions.Delete(obj, meta.ReconcilingCondition)
	}
	obj.Status.ObservedGeneration = obj.Generation
	return r.patch(ctx, obj, patcher)
}

// patch writes the object's metadata and status, owning the Flux conditions.
func (r *BundleReconciler) patch(ctx context.Context, obj *bundlev1.Bundle, patcher *patch.SerialPatcher) error {
	ownedConditions := []string{
		meta.ReadyCondition,
		meta.ReconcilingCondition,
		meta.StalledCondition,
	}
	err := patcher.Patch(ctx, obj, // want "write-always"
		patch.WithOwnedConditions{Conditions: ownedConditions},
		patch.WithFieldOwner(r.ControllerName),
	)
	if err != nil && !obj.DeletionTimestamp.IsZero() {
		// The object is gone once its last finalizer is removed.
		err = kerrors.FilterOut(err, apierrors.IsNotFound)
	}
	return err
}
