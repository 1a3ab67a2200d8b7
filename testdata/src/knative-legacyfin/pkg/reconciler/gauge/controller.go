package gauge

import (
	"context"

	"k8s.io/client-go/tools/cache"
	"knative.dev/pkg/controller"
	pkgreconciler "knative.dev/pkg/reconciler"

	"example.com/fixtures/knative-legacyfin/pkg/client/clientset/versioned"
	gaugeinformers "example.com/fixtures/knative-legacyfin/pkg/client/informers/gauges/v1"
	gaugereconciler "example.com/fixtures/knative-legacyfin/pkg/client/injection/reconciler/gauges/v1/gauge"
)

// pausedAnnotation, set to "true", keeps a Gauge from being checked.
const pausedAnnotation = "gauges.example.com/paused"

// NewController builds the Gauge controller: only Gauges that are not
// paused reach its queue.
func NewController(ctx context.Context, cs versioned.Interface, informer gaugeinformers.GaugeInformer) *controller.Impl {
	impl := gaugereconciler.NewImpl(ctx, &Reconciler{client: cs}, cs, informer.Lister())
	informer.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: pkgreconciler.AnnotationFilterFunc(pausedAnnotation, "false", true),
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc:    impl.Enqueue,
			UpdateFunc: controller.PassNew(impl.Enqueue),
			DeleteFunc: func(obj interface{}) {
				impl.Enqueue(obj)
			},
		},
	})
	return impl
}
