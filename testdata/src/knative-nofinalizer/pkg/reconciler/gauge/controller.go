package gauge

import (
	"context"

	"k8s.io/client-go/tools/cache"
	"knative.dev/pkg/controller"
	pkgreconciler "knative.dev/pkg/reconciler"

	"example.com/fixtures/knative-nofinalizer/pkg/client/clientset/versioned"
	gaugeinformers "example.com/fixtures/knative-nofinalizer/pkg/client/informers/gauges/v1"
	gaugereconciler "example.com/fixtures/knative-nofinalizer/pkg/client/injection/reconciler/gauges/v1/gauge"
)

// pausedAnnotation, set to "true", keeps a Gauge from being checked.
const pausedAnnotation = "gauges.example.com/paused"

// NewController builds the Gauge controller: only Gauges that are not
// paused reach its queue.
func NewController(ctx context.Context, cs versioned.Interface, informer gaugeinformers.GaugeInformer) *controller.Impl {
	impl := gaugereconciler.NewImpl(ctx, &Reconciler{prober: newProber()}, cs, informer.Lister())
	informer.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: pkgreconciler.AnnotationFilterFunc(pausedAnnotation, "false", true),
		Handler: cache.ResourceEventHandlerFuncs{
			AddFunc:    impl.Enqueue,                     // want "stage-watch" "stage-enqueue"
			UpdateFunc: controller.PassNew(impl.Enqueue), // want "re-entry:Gauge update"
			DeleteFunc: func(obj interface{}) {
				impl.Enqueue(obj)
			},
		},
	})
	return impl
}
