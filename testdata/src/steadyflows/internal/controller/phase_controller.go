package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	tickv1 "example.com/fixtures/steadyflows/api/v1"
)

// want-none "PhaseReconciler/condition-types" "PhaseReconciler/requeue-success" "PhaseReconciler/interval-trace" "PhaseReconciler/drift"

// phaseFinalizer is a variable, never written: the finalizer's name as a
// constant would be.
var phaseFinalizer = "steadyflows.example.com/phase" // want "PhaseReconciler/finalizer-const"

// PhaseReconciler handles each Ticker once, as a state machine on its
// phase: a Ticker it has handled is Done (or Failed), and a pass that finds
// it so does nothing.
type PhaseReconciler struct {
	client.Client
}

// Reconcile handles a new Ticker.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	obj := &tickv1.Ticker{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, r.release(ctx, obj)
	}
	if !controllerutil.ContainsFinalizer(obj, phaseFinalizer) {
		controllerutil.AddFinalizer(obj, phaseFinalizer) // want "PhaseReconciler/finalizer-add"
		if err := r.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	switch obj.Status.Phase {
	case "", tickv1.PhaseNew:
	default:
		log.FromContext(ctx).Info("ticker handled already", "phase", obj.Status.Phase)
		return ctrl.Result{}, nil
	}
	obj.Status.Phase = tickv1.PhaseDone
	if err := r.mirror(ctx, obj); err != nil {
		obj.Status.Phase = tickv1.PhaseFailed
	}
	return ctrl.Result{}, r.Status().Update(ctx, obj) // want "PhaseReconciler/requeue-error"
}

// mirror copies the owner the ticks ConfigMap names onto a ConfigMap of
// the Ticker's, when it names one: a test of presence, no comparison of
// desired with live state.
func (r *PhaseReconciler) mirror(ctx context.Context, obj *tickv1.Ticker) error {
	var cm corev1.ConfigMap
	if err := r.Get(ctx, client.ObjectKey{Namespace: obj.Namespace, Name: "ticks"}, &cm); err != nil {
		return client.IgnoreNotFound(err)
	}
	owner := cm.Labels["owner"]
	if owner == "" {
		return nil
	}
	owned, err := r.owned(ctx, obj)
	if err != nil {
		return err
	}
	if len(owned) != 0 {
		return nil
	}
	copied := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: obj.Name + "-owner", Namespace: obj.Namespace,
		Labels: map[string]string{"owner": owner}}}
	return r.Create(ctx, copied) // decoy: drift:apply (guarded by tests of presence)
}

// owned lists the ConfigMaps the Ticker's owner label selects.
func (r *PhaseReconciler) owned(ctx context.Context, obj *tickv1.Ticker) ([]corev1.ConfigMap, error) {
	var list corev1.ConfigMapList
	if err := r.List(ctx, &list, client.InNamespace(obj.Namespace), client.MatchingLabels{"ticker": obj.Name}); err != nil {
		return nil, err
	}
	return list.Items, nil
}

// release lets a deleted Ticker go.
func (r *PhaseReconciler) release(ctx context.Context, obj *tickv1.Ticker) error { // want "PhaseReconciler/finalizer-cleanup"
	controllerutil.RemoveFinalizer(obj, phaseFinalizer) // want "PhaseReconciler/finalizer-remove"
	return r.Update(ctx, obj)
}

// SetupWithManager registers the reconciler for Tickers.
func (r *PhaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&tickv1.Ticker{}).Named("phase").Complete(r)
}
