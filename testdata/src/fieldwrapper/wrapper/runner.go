package wrapper

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Work is what a binary hands a runner: a value whose method the runner
// calls, where the wrapper above calls a function.
type Work interface {
	Run(ctx context.Context, req ctrl.Request, c client.Client) (ctrl.Result, error)
}

// Runner runs a binary's work for its kind.
type Runner struct {
	client.Client
	Name string
	For  client.Object
	Work Work
}

// Start registers the runner.
func (r *Runner) Start(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named(r.Name).For(r.For).Complete(r)
}

// Reconcile hands the request to the work.
func (r *Runner) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return r.Work.Run(ctx, req, r.Client)
}
