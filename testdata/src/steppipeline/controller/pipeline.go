package controller

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// StagePipeline runs its stages, each a reconciler of its own called with
// the same request, through one call of the reconcile.Reconciler
// interface: which stage reads the Secret first is the order of a slice
// the code fills at run time. No stage returns an error: a failed stage
// asks for an immediate requeue, so the pipeline's error return never
// runs: that immediate requeue is its requeue on error. The pipeline
// keeps the earliest time a stage asked to come back
// at, and returns it, when there is one, as its own interval.
type StagePipeline struct {
	stages []reconcile.Reconciler
}

// NewStagePipeline builds the pipeline from the stage constructors it is
// handed.
func NewStagePipeline(c client.Client, makers ...func(client.Client) reconcile.Reconciler) *StagePipeline {
	p := &StagePipeline{}
	for _, m := range makers {
		p.stages = append(p.stages, m(c))
	}
	return p
}

// Reconcile runs every stage in turn.
func (p *StagePipeline) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StagePipeline/reconcile-entry"
	var deadline *time.Time
	for _, s := range p.stages {
		ret, err := s.Reconcile(ctx, req) // want "StagePipeline/trace:computed"
		if err != nil {
			return ctrl.Result{}, err // decoy: requeue-error (no stage returns an error)
		}
		if ret.Requeue {
			return ret, nil // decoy: requeue-success (a stage's immediate requeue)
		}
		if ret.RequeueAfter > 0 {
			end := time.Now().Add(ret.RequeueAfter) // want "StagePipeline/trace:computed"
			if deadline == nil || end.Before(*deadline) {
				deadline = &end
			}
		}
	}
	res := ctrl.Result{}
	if deadline != nil {
		res.RequeueAfter = time.Until(*deadline) // want "StagePipeline/trace:computed"
	}
	return res, nil // want "StagePipeline/requeue-success" "StagePipeline/trace:return"
}

// StampStage stamps opaque Secrets.
type StampStage struct {
	client.Client
}

// Reconcile reads the Secret and stamps it when it is opaque.
func (s *StampStage) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sec := &corev1.Secret{}
	if err := s.Get(ctx, req.NamespacedName, sec); err != nil {
		return ctrl.Result{}, nil
	}
	if sec.Type != corev1.SecretTypeOpaque {
		return ctrl.Result{}, nil
	}
	return stamp(ctx, s.Client, sec)
}

// stamp writes the stamp; a failure asks for an immediate requeue.
func stamp(ctx context.Context, c client.Client, sec *corev1.Secret) (ctrl.Result, error) {
	if sec.Annotations == nil {
		sec.Annotations = map[string]string{}
	}
	sec.Annotations["stamped"] = "true"
	if err := c.Update(ctx, sec); err != nil {
		return ctrl.Result{Requeue: true}, nil // want "StagePipeline/requeue-error"
	}
	return ctrl.Result{}, nil
}

// ExpiryStage asks to come back when the Secret's lifetime ends.
type ExpiryStage struct {
	client.Client
}

// Reconcile reads the Secret and waits for its expiry.
func (s *ExpiryStage) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	sec := &corev1.Secret{}
	if err := s.Get(ctx, req.NamespacedName, sec); err != nil {
		return ctrl.Result{}, nil
	}
	left := time.Until(sec.CreationTimestamp.Add(time.Hour))
	if left <= 0 {
		return ctrl.Result{}, nil
	}
	return ctrl.Result{RequeueAfter: left}, nil
}

// SetupStagePipeline registers the pipeline for Secrets.
func SetupStagePipeline(mgr ctrl.Manager) error {
	p := NewStagePipeline(mgr.GetClient(),
		func(c client.Client) reconcile.Reconciler { return &StampStage{Client: c} },
		func(c client.Client) reconcile.Reconciler { return &ExpiryStage{Client: c} },
	)
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Secret{}).Complete(p)
}
