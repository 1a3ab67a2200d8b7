package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "MirrorReconciler/finalizer-const" "MirrorReconciler/finalizer-add" "MirrorReconciler/finalizer-cleanup" "MirrorReconciler/finalizer-remove" "MirrorReconciler/condition-types" "MirrorReconciler/requeue-success" "MirrorReconciler/interval-trace"

// MirrorReconciler keeps one ConfigMap mirroring each Ticker's period. Its
// comparison sits in an else-if of the read's error check, on a bool a
// predicate of its own hands back beside what it found.
type MirrorReconciler struct {
	client.Client
}

// Reconcile creates the Ticker's mirror, or updates it when its period
// drifted from the Ticker's.
func (r *MirrorReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "MirrorReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "MirrorReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !mirrored(obj) { // decoy: drift:compare (the Ticker's own label, set on the Ticker: no desired state applied)
		metav1.SetMetaDataLabel(&obj.ObjectMeta, "mirrored", "true")
		if err := r.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	period := strconv.FormatInt(obj.Spec.PeriodSeconds, 10)
	live := &corev1.ConfigMap{}
	key := client.ObjectKey{Namespace: obj.Namespace, Name: obj.Name + "-mirror"}
	if err := r.Get(ctx, key, live); apierrors.IsNotFound(err) {
		live = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name},
			Data: map[string]string{"period": period}}
		return ctrl.Result{}, r.Create(ctx, live)
	} else if err != nil {
		return ctrl.Result{}, err
	} else if stale, old := periodDiffers(live, period); stale { // want "MirrorReconciler/drift:compare"
		ctrl.LoggerFrom(ctx).Info("period drifted", "from", old)
		live.Data["period"] = period
		if err := r.Update(ctx, live); err != nil { // want "MirrorReconciler/drift:apply"
			return ctrl.Result{}, err // want "MirrorReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// periodDiffers reports whether the mirror's period is another than want,
// and hands back the one it holds.
func periodDiffers(live *corev1.ConfigMap, want string) (bool, string) {
	got := live.Data["period"]
	return got != want, got
}

// mirrored reports whether the Ticker is labelled as mirrored.
func mirrored(t *tickv1.Ticker) bool {
	return t.Labels["mirrored"] == "true"
}

// SetupWithManager registers the reconciler for Tickers.
func (r *MirrorReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
