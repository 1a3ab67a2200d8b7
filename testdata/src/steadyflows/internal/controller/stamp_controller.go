package controller

import (
	"context"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/record"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove" "StampReconciler/condition-types" "StampReconciler/requeue-success" "StampReconciler/interval-trace" "StampReconciler/drift"

// StampReconciler stamps each Ticker with its period. Its pass is a
// helper that hands back what to patch (nil: nothing) beside its error;
// a Ticker stamped already ends the helper's pass early with nil, nil.
type StampReconciler struct {
	client.Client
	Recorder record.EventRecorder
}

// Reconcile patches what stamp hands back, when it hands back anything.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	stamp, err := r.stamp(ctx, req)
	if stamp != nil {
		obj := &tickv1.Ticker{ObjectMeta: metav1.ObjectMeta{Name: req.Name, Namespace: req.Namespace,
			Annotations: map[string]string{"period": *stamp}}}
		if perr := r.Patch(ctx, obj, client.Merge); perr != nil {
			return ctrl.Result{}, perr
		}
	}
	return ctrl.Result{}, err // want "StampReconciler/requeue-error"
}

// stamp reads the Ticker and returns the period to stamp on it, or nil
// when it carries that period already.
func (r *StampReconciler) stamp(ctx context.Context, req ctrl.Request) (*string, error) {
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "StampReconciler/reread"
		return nil, client.IgnoreNotFound(err)
	}
	period := strconv.FormatInt(obj.Spec.PeriodSeconds, 10)
	if obj.Annotations["period"] == period {
		return nil, nil
	}
	r.Recorder.Event(obj, corev1.EventTypeNormal, "Stamped", "period stamped") // decoy: write-always (a stamped Ticker's pass ends at the early return above)
	return &period, nil
}

// SetupWithManager registers the reconciler for Tickers.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Complete(r)
}
