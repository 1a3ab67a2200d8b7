// Package labeller is a knative.dev/pkg controller whose Reconciler is
// written by hand: no generated reconciler, its own Reconcile(ctx, key)
// is what the dependency's controller runs with each key it dequeues. It
// re-reads the ConfigMap from a lister, and labels it when the label is
// missing.
package labeller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"knative.dev/pkg/controller"
	"knative.dev/pkg/logging"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// ownerLabel is the label each ConfigMap is given.
const ownerLabel = "example.com/labelled"

// Reconciler labels ConfigMaps.
type Reconciler struct {
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
}

// Reconcile labels the ConfigMap the key names.
func (r *Reconciler) Reconcile(ctx context.Context, key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return controller.NewPermanentError(err)
	}
	cm, err := r.lister.ConfigMaps(namespace).Get(name) // want "reread"
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	if cm.Labels[ownerLabel] == "true" { // want "drift:compare"
		return nil
	}
	return r.label(ctx, cm)
}

// label writes the label onto a copy of the ConfigMap.
func (r *Reconciler) label(ctx context.Context, cm *corev1.ConfigMap) error {
	cm = cm.DeepCopy()
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[ownerLabel] = "true"
	if _, err := r.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "drift:apply"
		return fmt.Errorf("labelling %s/%s: %w", cm.Namespace, cm.Name, err) // want "requeue-error"
	}
	return nil
}

// NewController builds the controller: ConfigMap events enqueue the
// ConfigMap's key.
func NewController(ctx context.Context, client kubernetes.Interface, factory informers.SharedInformerFactory) *controller.Impl {
	informer := factory.Core().V1().ConfigMaps()
	r := &Reconciler{client: client, lister: informer.Lister()}
	impl := controller.NewContext(ctx, r, controller.ControllerOptions{WorkQueueName: "labeller", Logger: logging.FromContext(ctx)})
	informer.Informer().AddEventHandler(controller.HandleAll(impl.Enqueue))
	return impl
}
