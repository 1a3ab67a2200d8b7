// Package result builds the pair every return of the reconcilers hands
// back, one constructor per outcome, each a single return.
package result

import (
	"context"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Done ends a pass that needs nothing more.
func Done() (ctrl.Result, error) {
	return ctrl.Result{}, nil
}

// Failed logs the failure and hands it back for a rate-limited retry.
func Failed(ctx context.Context, err error, msg string, keysAndValues ...any) (ctrl.Result, error) {
	if msg == "" {
		msg = "reconcile failed"
	}
	log.FromContext(ctx).Error(err, msg, keysAndValues...)
	return ctrl.Result{}, err
}

// FailedUnlessGone is Failed, but a NotFound ends the pass.
func FailedUnlessGone(ctx context.Context, gone bool, err error, keysAndValues ...any) (ctrl.Result, error) {
	if gone {
		return Done()
	}
	return Failed(ctx, err, "", keysAndValues...)
}

// After asks for the key again after d.
func After(ctx context.Context, d time.Duration, msg string) (ctrl.Result, error) {
	log.FromContext(ctx).V(1).Info(msg, "after", d.String())
	return ctrl.Result{Requeue: true, RequeueAfter: d}, nil
}
