package wrapper

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// PassFunc is the work a binary hands a gate.
type PassFunc func(ctx context.Context, req ctrl.Request) (ctrl.Result, error)

// Gate runs a binary's function unless it is shut, and looks again in a
// minute while it is: a requeue of the wrapper's own, around the call.
type Gate struct {
	Name string
	For  client.Object
	Shut bool
	Pass PassFunc
}

// Start registers the gate.
func (g *Gate) Start(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named(g.Name).For(g.For).Complete(g)
}

// Reconcile runs the function unless the gate is shut.
func (g *Gate) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	if g.Shut {
		return ctrl.Result{RequeueAfter: time.Minute}, nil
	}
	return g.Pass(ctx, req)
}
