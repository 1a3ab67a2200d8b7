package timer

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-shapes/pkg/client/clientset/versioned"
	gaugeinformers "example.com/fixtures/knative-shapes/pkg/client/informers/gauges/v1"
	gaugereconciler "example.com/fixtures/knative-shapes/pkg/client/injection/reconciler/gauges/v1/gauge"
)

// NewController builds the Gauge timeout controller; its callback enqueues
// a Gauge's key again after the delay the reconciler asks for.
func NewController(ctx context.Context, cs versioned.Interface, informer gaugeinformers.GaugeInformer) *controller.Impl {
	r := &Reconciler{}
	impl := gaugereconciler.NewImpl(ctx, r, cs, informer.Lister())
	r.onTimeout = func(key types.NamespacedName, d time.Duration) {
		impl.EnqueueKeyAfter(key, d) // want "timer.Reconciler/requeue-success" "timer.Reconciler/trace:return"
	}
	informer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
