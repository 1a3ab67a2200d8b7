// Package controller holds a reconciler that runs its work as a list of
// phases, each handing back a result of the tree's own type, whose fields
// the entry copies into the reconcile result. No phase asks for a
// requeue: the copied interval is always zero.
package controller

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "PhaseReconciler/finalizer-const" "PhaseReconciler/finalizer-add" "PhaseReconciler/finalizer-cleanup" "PhaseReconciler/finalizer-remove" "PhaseReconciler/condition-types" "PhaseReconciler/requeue-success" "PhaseReconciler/interval-trace"

// phaseResult is what a phase hands back.
type phaseResult struct {
	Requeue      bool
	RequeueAfter time.Duration
	// Completed ends the pass after the phase.
	Completed bool
}

// phase is one step of the pass.
type phase func(ctx context.Context, cm *corev1.ConfigMap) (*phaseResult, error)

// PhaseReconciler stamps ConfigMaps in phases.
type PhaseReconciler struct {
	client.Client
	phases []phase
}

// SetupWithManager registers the reconciler.
func (r *PhaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	r.phases = []phase{r.label, r.annotate}
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(r)
}

// Reconcile runs the phases and hands back what they ask for.
func (r *PhaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "PhaseReconciler/reconcile-entry"
	var cm corev1.ConfigMap
	if err := r.Get(ctx, req.NamespacedName, &cm); err != nil { // want "PhaseReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	res, err := r.run(ctx, &cm)
	return ctrl.Result{Requeue: res.Requeue, RequeueAfter: res.RequeueAfter}, ignoreWait(err) // want "PhaseReconciler/requeue-error"
}

// errWait says a phase waits for another object's event.
var errWait = errors.New("waiting for another object")

// ignoreWait drops errWait: the pass ends and the other object's event
// brings it back.
func ignoreWait(err error) error {
	if errors.Is(err, errWait) {
		return nil
	}
	return err
}

// run runs each phase until one fails or completes the pass.
func (r *PhaseReconciler) run(ctx context.Context, cm *corev1.ConfigMap) (*phaseResult, error) {
	for _, p := range r.phases {
		res, err := p(ctx, cm)
		if res.Completed {
			return &phaseResult{}, nil
		}
		if *res != (phaseResult{}) || err != nil {
			return res, err
		}
	}
	return &phaseResult{}, nil
}

// label stamps the owner label once.
func (r *PhaseReconciler) label(ctx context.Context, cm *corev1.ConfigMap) (*phaseResult, error) {
	if cm.Labels["owner"] == "phases" { // want "PhaseReconciler/drift:compare"
		return &phaseResult{}, nil
	}
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["owner"] = "phases"
	return &phaseResult{}, r.Update(ctx, cm)
}

// annotate completes the pass when the ConfigMap is already annotated.
func (r *PhaseReconciler) annotate(ctx context.Context, cm *corev1.ConfigMap) (*phaseResult, error) {
	if _, ok := cm.Annotations["phases"]; ok {
		return &phaseResult{Completed: true}, nil
	}
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations["phases"] = "done"
	return &phaseResult{}, r.Update(ctx, cm)
}
