// Package controller holds two reconcilers that share a base: each hands
// itself to the base's reconcile as the syncer the base calls through an
// interface. The call graph, blind to which caller handed which syncer,
// reaches both syncers from either entry; each controller's path is its
// own syncer only. The claimer adds a finalizer, the stamper none.
package controller

import (
	"context"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// syncer is what a controller of this package does on a pass.
type syncer interface {
	sync(ctx context.Context, req ctrl.Request) error
}

// base is the reconcile loop the controllers share.
type base struct {
	client.Client
}

// reconcile runs the syncer a controller hands it.
func (b *base) reconcile(ctx context.Context, req ctrl.Request, s syncer) (ctrl.Result, error) {
	if err := s.sync(ctx, req); err != nil {
		return ctrl.Result{}, err // want "ClaimReconciler/requeue-error" "StampReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}
