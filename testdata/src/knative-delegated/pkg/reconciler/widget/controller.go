package widget

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-delegated/pkg/client/clientset/versioned"
	widgetinformer "example.com/fixtures/knative-delegated/pkg/client/injection/informers/widgets/v1/widget"
	widgetreconciler "example.com/fixtures/knative-delegated/pkg/client/injection/reconciler/widgets/v1/widget"
)

// NewController hands the signer to the Widgets' generated reconciler,
// with the finalizer it keeps named where the options are made, and the
// status left alone: the signer records nothing in it.
func NewController(ctx context.Context, cs versioned.Interface, sources waiter) *controller.Impl {
	widgetInformer := widgetinformer.Get(ctx)
	r := &Reconciler{sources: sources, signed: map[string]string{}}
	impl := widgetreconciler.NewImpl(ctx, r, cs, widgetInformer.Lister(), func(*controller.Impl) controller.Options {
		return controller.Options{
			FinalizerName:     "signers.widgets.example.com", // want "finalizer-const"
			SkipStatusUpdates: true,
		}
	})
	widgetInformer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
