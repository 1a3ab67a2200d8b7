// Package controller holds a reconciler built the way Flux's source
// controller builds its own: the sub-steps report an outcome, and a
// deferred function turns it, through the tree's own result machinery,
// into the runtime result and error it stores in the named results, after
// whatever the body returned.
package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/fluxcd/pkg/runtime/patch"

	"example.com/fixtures/deferresult/sresult"
	"example.com/fixtures/deferresult/summarize"
)

// want-none "condition-types"

const sourceFinalizer = "finalizers.example.com" // want "finalizer-const"

// SourceReconciler checks the ConfigMaps a source is read from.
type SourceReconciler struct {
	client.Client
	Interval time.Duration
}

// Reconcile checks one ConfigMap; the deferred summary decides the result.
func (r *SourceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) { // want "reconcile-entry"
	obj := &corev1.ConfigMap{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil { // want "reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sp := patch.NewSerialPatcher(obj, r.Client)

	var outcome sresult.Outcome
	defer func() {
		h := summarize.NewHelper(sp)
		result, retErr = h.SummarizeAndPatch(ctx, obj,
			summarize.WithOutcome(outcome),
			summarize.WithError(retErr),
			summarize.WithBuilder(sresult.PeriodicBuilder{Every: r.Interval}), // want "trace:set"
		)
	}()

	if !obj.DeletionTimestamp.IsZero() {
		outcome, retErr = r.reconcileDelete(ctx, obj)
		return
	}
	if !controllerutil.ContainsFinalizer(obj, sourceFinalizer) {
		controllerutil.AddFinalizer(obj, sourceFinalizer) // want "finalizer-add"
		outcome = sresult.OutcomeRequeue
		return
	}
	outcome, retErr = r.reconcile(ctx, obj)
	return
}

func (r *SourceReconciler) reconcile(ctx context.Context, obj *corev1.ConfigMap) (sresult.Outcome, error) {
	if obj.Data["source"] == "" {
		return sresult.OutcomeEmpty, &sresult.Waiting{After: time.Minute, Err: errors.New("no source yet")}
	}
	if obj.Data["broken"] != "" {
		return sresult.OutcomeEmpty, errors.New("broken source")
	}
	if err := r.touchTargets(ctx, obj); err != nil {
		return sresult.OutcomeEmpty, err
	}
	return sresult.OutcomeSuccess, nil
}

// touchTargets marks the Secrets the source names, by name, whatever kind
// of object names them: the list is read from a field of each kind, so its
// emptiness is a test of the object's state, not a comparison with a live
// object. That the object handed in is the primary one is a caller's
// fact, which the search for a comparison does not follow: the drift
// answer is not settled at the Update, not a none.
func (r *SourceReconciler) touchTargets(ctx context.Context, obj client.Object) error {
	var targets map[string]string
	switch t := obj.(type) {
	case *corev1.ConfigMap:
		targets = t.Data
	case *corev1.Secret:
		targets = t.StringData
	}
	if len(targets) == 0 {
		return nil
	}
	for name := range targets {
		s := &corev1.Secret{}
		s.Namespace, s.Name = obj.GetNamespace(), name
		s.Annotations = map[string]string{"source.example.com/touched": "true"}
		if err := r.Update(ctx, s); err != nil { // want "drift:unsettled"
			return err
		}
	}
	return nil
}

func (r *SourceReconciler) reconcileDelete(ctx context.Context, obj *corev1.ConfigMap) (sresult.Outcome, error) { // want "finalizer-cleanup"
	if err := r.DeleteAllOf(ctx, &corev1.Secret{}, client.InNamespace(obj.Namespace), client.MatchingLabels{"source": obj.Name}); err != nil {
		return sresult.OutcomeEmpty, err
	}
	controllerutil.RemoveFinalizer(obj, sourceFinalizer) // want "finalizer-remove"
	return sresult.OutcomeEmpty, nil
}

// SetupWithManager registers the reconciler for ConfigMaps.
func (r *SourceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}
