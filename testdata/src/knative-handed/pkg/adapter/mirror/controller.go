package mirror

import (
	"context"

	"knative.dev/pkg/controller"

	"example.com/fixtures/knative-handed/pkg/client/clientset/versioned"
	widgetinformer "example.com/fixtures/knative-handed/pkg/client/injection/informers/widgets/v1/widget"
	widgetreconciler "example.com/fixtures/knative-handed/pkg/client/injection/reconciler/widgets/v1/widget"
)

// mirrorFinalizer names the finalizer of the mirror's controller (decoy:
// an option of another controller than the Widget's, and the mirror, no
// Finalizer, never adds it).
const mirrorFinalizer = "mirrors.widgets.example.com"

// NewController hands the mirror to the Widgets' generated reconciler and
// keeps the controller it makes, which its handler enqueues into.
func NewController(ctx context.Context, cs versioned.Interface) *controller.Impl {
	widgetInformer := widgetinformer.Get(ctx)
	r := &Reconciler{sources: map[string]string{}}
	impl := widgetreconciler.NewImpl(ctx, r, cs, widgetInformer.Lister(), func(*controller.Impl) controller.Options {
		return controller.Options{FinalizerName: mirrorFinalizer}
	})
	r.impl = impl
	widgetInformer.Informer().AddEventHandler(controller.HandleAll(r.enqueue))
	return impl
}

// enqueue hands a Widget to the mirror's own controller.
func (r *Reconciler) enqueue(obj any) {
	r.impl.Enqueue(obj)
}
