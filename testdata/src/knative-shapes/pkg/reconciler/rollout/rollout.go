// Package rollout installs a Gauge's dashboard as a manifest, in steps
// run one after the other; a step that finds the dashboard not up yet
// stops the run without failing it, and a Gauge on a remote cluster (whose
// objects no informer here watches) is then looked at again after a poll
// interval.
package rollout

import (
	"context"
	"errors"
	"flag"
	"time"

	mf "github.com/manifestival/manifestival"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"knative.dev/pkg/controller"
	"knative.dev/pkg/reconciler"

	gaugesv1 "example.com/fixtures/knative-shapes/pkg/apis/gauges/v1"
)

var pollFlag time.Duration

func init() {
	flag.DurationVar(&pollFlag, "poll-interval", 10*time.Second, "how often a remote dashboard is polled") // want "rollout.Reconciler/trace:computed"
}

// pollInterval is the poll flag, never below a second.
func pollInterval() time.Duration {
	if pollFlag < time.Second {
		return 10 * time.Second
	}
	return pollFlag
}

// errNotUp says the dashboard is not up yet: no failure.
var errNotUp = errors.New("dashboard not up")

// step is one step of a run.
type step func(ctx context.Context, m *mf.Manifest, g *gaugesv1.Gauge) error

// steps run in order.
type steps []step

// outcome is what a run that did not fail found.
type outcome struct {
	notUp bool
}

// run runs the steps until one fails; a step finding the dashboard not up
// ends the run with no error.
func (ss steps) run(ctx context.Context, m *mf.Manifest, g *gaugesv1.Gauge) (outcome, error) {
	var o outcome
	for _, s := range ss {
		if err := s(ctx, m, g); err != nil {
			if errors.Is(err, errNotUp) {
				o.notUp = true
				break
			}
			return o, err
		}
	}
	return o, nil
}

// Reconciler installs a Gauge's dashboard; it implements no FinalizeKind.
type Reconciler struct { // want-none "rollout.Reconciler/finalizer-const" "rollout.Reconciler/finalizer-add" "rollout.Reconciler/finalizer-cleanup" "rollout.Reconciler/finalizer-remove"
	manifest mf.Manifest
	remote   bool
}

// ReconcileKind runs the install steps.
func (r *Reconciler) ReconcileKind(ctx context.Context, g *gaugesv1.Gauge) reconciler.Event { // want "rollout.Reconciler/reconcile-entry"
	g.Status.MarkRunning("Installing", "installing the dashboard")
	ss := steps{
		install,
		checkUp,
		func(context.Context, *mf.Manifest, *gaugesv1.Gauge) error {
			g.Status.MarkWithinLimit()
			return nil
		},
	}
	m := r.manifest.Append()
	o, err := ss.run(ctx, &m, g)
	if err != nil {
		return err // want "rollout.Reconciler/requeue-error"
	}
	if o.notUp && r.remote {
		return controller.NewRequeueAfter(pollInterval()) // want "rollout.Reconciler/requeue-success" "rollout.Reconciler/trace:return"
	}
	return nil
}

// install applies the manifest: the library reads each object, and creates
// or updates it only when it differs.
func install(ctx context.Context, m *mf.Manifest, g *gaugesv1.Gauge) error {
	if err := m.Apply(); err != nil { // want "rollout.Reconciler/drift:apply"
		g.Status.MarkOverLimit(err.Error())
		return err
	}
	return nil
}

// checkUp reads the manifest's deployments back.
func checkUp(ctx context.Context, m *mf.Manifest, g *gaugesv1.Gauge) error {
	for _, u := range m.Filter(mf.ByKind("Deployment")).Resources() {
		live, err := m.Client.Get(&u)
		if err != nil {
			return err
		}
		if ready, _, _ := unstructured.NestedBool(live.Object, "status", "ready"); !ready {
			return errNotUp
		}
	}
	return nil
}
