package widget

import (
	"context"
	"net/http"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	kubeclient "knative.dev/pkg/client/injection/kube/client"
	secretinformer "knative.dev/pkg/client/injection/kube/informers/core/v1/secret"
	"knative.dev/pkg/controller"
	"knative.dev/pkg/logging"

	"example.com/fixtures/knative-finwrite/pkg/client/clientset/versioned"
	widgetinformer "example.com/fixtures/knative-finwrite/pkg/client/injection/informers/widgets/v1/widget"
	widgetreconciler "example.com/fixtures/knative-finwrite/pkg/client/injection/reconciler/widgets/v1/widget"
)

// NewController builds the Widget controller and wires its informers to
// its queue.
func NewController(ctx context.Context, cs versioned.Interface) *controller.Impl {
	widgetInformer := widgetinformer.Get(ctx)
	secretInformer := secretinformer.Get(ctx)
	r := &Reconciler{client: http.DefaultClient, kube: kubeclient.Get(ctx)}
	impl := widgetreconciler.NewImpl(ctx, r, cs, widgetInformer.Lister())
	r.probes = newProber(impl.EnqueueAfter)

	// decoy: an audit queue of its own watches Widgets too; its handler is
	// not this controller's watch
	audit := controller.NewContext(ctx, auditor{}, controller.ControllerOptions{WorkQueueName: "widget-audit"})
	widgetInformer.Informer().AddEventHandler(controller.HandleAll(audit.Enqueue))
	widgetInformer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	// decoy: the Secrets a Widget owns bring their owner back, but theirs is not the watch of the primary type
	secretInformer.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: controller.FilterControllerGK(schema.GroupKind{Group: "widgets.example.com", Kind: "Widget"}),
		Handler:    controller.HandleAll(impl.EnqueueControllerOf),
	})
	return impl
}

// auditor logs the keys of the audit queue.
type auditor struct{}

// Reconcile logs a Widget's key.
func (auditor) Reconcile(ctx context.Context, key string) error {
	logging.FromContext(ctx).Infow("audit", "key", key)
	return nil
}
