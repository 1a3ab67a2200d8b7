package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "TargetReconciler/finalizer-const" "TargetReconciler/finalizer-add" "TargetReconciler/finalizer-cleanup" "TargetReconciler/finalizer-remove" "TargetReconciler/condition-types" "TargetReconciler/requeue-success" "TargetReconciler/interval-trace"

// TargetReconciler keeps a ConfigMap per Ticker annotated with its period.
// The live ConfigMap, when there is one, is compared with the period in a
// predicate that computes a bool, under a test that it exists; an equal
// one ends the pass, a stale or missing one is patched by a helper.
type TargetReconciler struct {
	client.Client
}

// Reconcile brings the Ticker's target ConfigMap up to date.
func (r *TargetReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "TargetReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "TargetReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := r.applyTarget(ctx, obj); err != nil {
		return ctrl.Result{}, err // want "TargetReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// applyTarget patches the target ConfigMap unless the live one is current.
func (r *TargetReconciler) applyTarget(ctx context.Context, obj *tickv1.Ticker) error {
	period := strconv.FormatInt(obj.Spec.PeriodSeconds, 10)
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name + "-period"}
	live := &corev1.ConfigMap{}
	err := r.Get(ctx, key, live)
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	if !apierrors.IsNotFound(err) {
		if stale, err := targetStale(live, period); err != nil {
			return err
		} else if !stale { // want "TargetReconciler/drift:compare"
			return nil
		}
	}
	want := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name,
		Annotations: map[string]string{"period": period}}}
	return r.patchTarget(ctx, want) // want "TargetReconciler/drift:apply"
}

// targetStale reports whether the live ConfigMap's period differs from the
// one wanted, or it holds data of another writer.
func targetStale(live *corev1.ConfigMap, period string) (bool, error) {
	stale := live.Annotations["period"] != period
	if len(live.Data) > 0 {
		stale = true
	}
	return stale, nil
}

// patchTarget writes the ConfigMap.
func (r *TargetReconciler) patchTarget(ctx context.Context, cm *corev1.ConfigMap) error {
	return r.Patch(ctx, cm, client.Merge) // want "TargetReconciler/drift:apply"
}

// SetupWithManager registers the reconciler for Tickers.
func (r *TargetReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
