package relay

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-shapes/pkg/client/clientset/versioned"
	gaugeinformers "example.com/fixtures/knative-shapes/pkg/client/informers/gauges/v1"
	gaugereconciler "example.com/fixtures/knative-shapes/pkg/client/injection/reconciler/gauges/v1/gauge"
)

// NewController builds the Gauge relaying controller.
func NewController(ctx context.Context, cs versioned.Interface, informer gaugeinformers.GaugeInformer) *controller.Impl {
	r := &Reconciler{}
	impl := gaugereconciler.NewImpl(ctx, r, cs, informer.Lister())
	informer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
