package gauge

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/gaugelib/pkg/client/clientset/versioned"
	gaugeinformers "example.com/fixtures/gaugelib/pkg/client/informers/gauges/v1"
	gaugereconciler "example.com/fixtures/gaugelib/pkg/client/injection/reconciler/gauges/v1/gauge"
)

// NewController hands the Reconciler to the generated reconciler of the
// module that declares the Gauge kind.
func NewController(ctx context.Context, cs versioned.Interface, informer gaugeinformers.GaugeInformer, limits map[string]int64) *controller.Impl {
	r := &Reconciler{limits: limits}
	impl := gaugereconciler.NewImpl(ctx, r, cs, informer.Lister())
	informer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
