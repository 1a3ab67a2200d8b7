package rollout

import (
	"context"

	mf "github.com/manifestival/manifestival"
	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-shapes/pkg/client/clientset/versioned"
	gaugeinformers "example.com/fixtures/knative-shapes/pkg/client/informers/gauges/v1"
	gaugereconciler "example.com/fixtures/knative-shapes/pkg/client/injection/reconciler/gauges/v1/gauge"
)

// NewController builds the Gauge dashboard controller, which installs a
// manifest through the client it is handed.
func NewController(ctx context.Context, cs versioned.Interface, informer gaugeinformers.GaugeInformer, client mf.Client, remote bool) *controller.Impl {
	manifest, _ := mf.ManifestFrom(mf.Slice{}, mf.UseClient(client))
	r := &Reconciler{manifest: manifest, remote: remote}
	impl := gaugereconciler.NewImpl(ctx, r, cs, informer.Lister())
	informer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
