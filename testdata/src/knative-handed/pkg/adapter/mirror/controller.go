package mirror

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-handed/pkg/client/clientset/versioned"
	widgetinformer "example.com/fixtures/knative-handed/pkg/client/injection/informers/widgets/v1/widget"
	widgetreconciler "example.com/fixtures/knative-handed/pkg/client/injection/reconciler/widgets/v1/widget"
)

// NewController hands the mirror to the Widgets' generated reconciler and
// keeps the controller it makes, which its handler enqueues into.
func NewController(ctx context.Context, cs versioned.Interface) *controller.Impl {
	widgetInformer := widgetinformer.Get(ctx)
	r := &Reconciler{sources: map[string]string{}}
	impl := widgetreconciler.NewImpl(ctx, r, cs, widgetInformer.Lister())
	r.impl = impl
	widgetInformer.Informer().AddEventHandler(controller.HandleAll(r.enqueue))
	return impl
}

// enqueue hands a Widget to the mirror's own controller.
func (r *Reconciler) enqueue(obj any) {
	r.impl.Enqueue(obj)
}
