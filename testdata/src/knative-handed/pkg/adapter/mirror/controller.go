package mirror

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-handed/pkg/client/clientset/versioned"
	widgetinformer "example.com/fixtures/knative-handed/pkg/client/injection/informers/widgets/v1/widget"
	widgetreconciler "example.com/fixtures/knative-handed/pkg/client/injection/reconciler/widgets/v1/widget"
)

// NewController hands the mirror to the Widgets' generated reconciler.
func NewController(ctx context.Context, cs versioned.Interface) *controller.Impl {
	widgetInformer := widgetinformer.Get(ctx)
	impl := widgetreconciler.NewImpl(ctx, &Reconciler{sources: map[string]string{}}, cs, widgetInformer.Lister())
	widgetInformer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
