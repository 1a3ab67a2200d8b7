package beacon

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-enqueueafter/pkg/client/clientset/versioned"
	beaconinformers "example.com/fixtures/knative-enqueueafter/pkg/client/informers/beacons/v1"
	beaconreconciler "example.com/fixtures/knative-enqueueafter/pkg/client/injection/reconciler/beacons/v1/beacon"
)

// NewController builds the Beacon controller.
func NewController(ctx context.Context, cs versioned.Interface, informer beaconinformers.BeaconInformer) *controller.Impl {
	r := &Reconciler{}
	impl := beaconreconciler.NewImpl(ctx, r, cs, informer.Lister())
	r.impl = impl
	informer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue)) // want "stage-watch" "stage-enqueue" "re-entry:Beacon update"
	return impl
}
