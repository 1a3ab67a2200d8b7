// Package controller keeps each Widget's status in line with the Secret it names.
package controller

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/listers"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	v1 "example.com/fixtures/clientgo-finalizer/api/v1"
	"example.com/fixtures/clientgo-finalizer/pkg/widgetclient"
)

// want-none "requeue-success" "interval-trace" "drift"

// ownerAnnotation on a Secret names the Widget that reads it.
const ownerAnnotation = "widgets.example.com/owner"

// WidgetLister lists Widgets from the shared informer's indexer.
type WidgetLister struct {
	listers.ResourceIndexer[*v1.Widget]
}

// Widgets returns a lister scoped to one namespace.
func (l WidgetLister) Widgets(namespace string) listers.ResourceIndexer[*v1.Widget] {
	return listers.NewNamespaced(l.ResourceIndexer, namespace)
}

// NewWidgetInformer returns a shared informer for Widgets in all namespaces.
func NewWidgetInformer(client widgetclient.WidgetsGetter, resync time.Duration) cache.SharedIndexInformer {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return client.Widgets(metav1.NamespaceAll).List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return client.Widgets(metav1.NamespaceAll).Watch(ctx, opts)
		},
	}
	return cache.NewSharedIndexInformer(lw, &v1.Widget{}, resync, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

// Controller reconciles Widgets.
type Controller struct {
	kubeclientset kubernetes.Interface
	widgetclient  widgetclient.WidgetsGetter

	widgetLister  WidgetLister
	widgetsSynced cache.InformerSynced
	secretLister  corelisters.SecretLister
	secretsSynced cache.InformerSynced

	workqueue workqueue.TypedRateLimitingInterface[string]

	// syncHandler processes one "namespace/name" key; tests swap it out.
	syncHandler func(ctx context.Context, key string) error
}

// NewController wires the informers' handlers to the work queue.
func NewController(
	ctx context.Context,
	kubeclientset kubernetes.Interface,
	widgetclient widgetclient.WidgetsGetter,
	widgetInformer cache.SharedIndexInformer,
	secretInformer coreinformers.SecretInformer,
) (*Controller, error) {
	logger := klog.FromContext(ctx)
	c := &Controller{
		kubeclientset: kubeclientset,
		widgetclient:  widgetclient,
		widgetLister:  WidgetLister{listers.New[*v1.Widget](widgetInformer.GetIndexer(), v1.Resource.GroupResource())},
		widgetsSynced: widgetInformer.HasSynced,
		secretLister:  secretInformer.Lister(),
		secretsSynced: secretInformer.Informer().HasSynced,
		workqueue: workqueue.NewTypedRateLimitingQueueWithConfig(
			workqueue.DefaultTypedControllerRateLimiter[string](),
			workqueue.TypedRateLimitingQueueConfig[string]{Name: "widgets"},
		),
	}
	c.syncHandler = c.syncWidget

	logger.Info("Setting up event handlers")
	if _, err := widgetInformer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueueWidget, // want "stage-watch"
		UpdateFunc: func(old, new interface{}) {
			c.enqueueWidget(new) // want "re-entry:Widget update"
		},
		DeleteFunc: c.enqueueWidget,
	}); err != nil {
		return nil, err
	}
	if _, err := secretInformer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.handleSecret, // decoy: stage-watch (secondary informer)
		UpdateFunc: func(old, new interface{}) {
			c.handleSecret(new) // want "re-entry:Secret update"
		},
	}); err != nil {
		return nil, err
	}
	return c, nil
}

// Run starts the workers and blocks until ctx is done.
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	defer c.workqueue.ShutDown()
	logger := klog.FromContext(ctx)

	logger.Info("Waiting for informer caches to sync")
	if ok := cache.WaitForCacheSync(ctx.Done(), c.widgetsSynced, c.secretsSynced); !ok {
		return fmt.Errorf("failed to wait for caches to sync")
	}
	for i := 0; i < workers; i++ {
		go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	}
	<-ctx.Done()
	return nil
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	key, shutdown := c.workqueue.Get() // want "stage-dequeue"
	if shutdown {
		return false
	}
	defer c.workqueue.Done(key)

	if err := c.syncHandler(ctx, key); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing widget", "key", key)
		c.workqueue.AddRateLimited(key) // want "requeue-error"
		return true
	}
	c.workqueue.Forget(key)
	return true
}

// syncWidget brings one Widget's status in line with its Secret.
func (c *Controller) syncWidget(ctx context.Context, key string) error { // want "reconcile-entry"
	logger := klog.LoggerWithValues(klog.FromContext(ctx), "key", key)

	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Invalid resource key")
		return nil
	}

	w, err := c.widgetLister.Widgets(namespace).Get(name) // want "reread" "stage-read"
	if err != nil {
		if errors.IsNotFound(err) {
			logger.V(4).Info("Widget no longer exists")
			return nil
		}
		return err
	}

	if w.DeletionTimestamp != nil {
		return c.finalizeWidget(ctx, w)
	}

	if !slices.Contains(w.Finalizers, v1.WidgetFinalizer) {
		w = w.DeepCopy()
		w.Finalizers = append(w.Finalizers, v1.WidgetFinalizer)                                            // want "finalizer-add"
		if w, err = c.widgetclient.Widgets(namespace).Update(ctx, w, metav1.UpdateOptions{}); err != nil { // want "stage-write:update Widget"
			return err
		}
	}

	w = w.DeepCopy()
	secret, err := c.secretLister.Secrets(namespace).Get(w.Spec.SecretName) // decoy: reread (another object)
	switch {
	case errors.IsNotFound(err):
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: v1.ConditionReady, Status: metav1.ConditionFalse, Reason: v1.ReasonSecretMissing, Message: fmt.Sprintf("secret %q not found", w.Spec.SecretName)})
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: v1.ConditionDegraded, Status: metav1.ConditionTrue, Reason: v1.ReasonSecretMissing, Message: "waiting for secret"}) // want "condition-set:Degraded"
		w.Status.KeyCount = 0
	case err != nil:
		return err
	default:
		meta.SetStatusCondition(&w.Status.Conditions, metav1.Condition{Type: v1.ConditionReady, Status: metav1.ConditionTrue, Reason: v1.ReasonSynced, Message: "secret read"}) // want "condition-set:Ready"
		meta.RemoveStatusCondition(&w.Status.Conditions, v1.ConditionDegraded)
		w.Status.KeyCount = len(secret.Data)
	}
	w.Status.ObservedGeneration = w.Generation

	_, err = c.widgetclient.Widgets(namespace).UpdateStatus(ctx, w, metav1.UpdateOptions{}) // want "stage-write:update Widget status" "write-always"
	return err
}

// finalizeWidget drops the Secret's owner annotation, then releases the Widget.
func (c *Controller) finalizeWidget(ctx context.Context, w *v1.Widget) error { // want "finalizer-cleanup"
	if !slices.Contains(w.Finalizers, v1.WidgetFinalizer) {
		return nil
	}
	secrets := c.kubeclientset.CoreV1().Secrets(w.Namespace)
	secret, err := secrets.Get(ctx, w.Spec.SecretName, metav1.GetOptions{}) // decoy: reread (clientset Get of another object)
	switch {
	case errors.IsNotFound(err):
	case err != nil:
		return err
	case secret.Annotations[ownerAnnotation] == w.Name:
		secret = secret.DeepCopy()
		delete(secret.Annotations, ownerAnnotation)
		if _, err := secrets.Update(ctx, secret, metav1.UpdateOptions{}); err != nil { // want "stage-write:update Secret"
			return err
		}
	}

	kept := make([]string, 0, len(w.Finalizers))
	for _, f := range w.Finalizers {
		if f != v1.WidgetFinalizer {
			kept = append(kept, f) // decoy: finalizer-add (append to a local slice)
		}
	}
	w = w.DeepCopy()
	w.Finalizers = kept                                                                 // want "finalizer-remove"
	_, err = c.widgetclient.Widgets(w.Namespace).Update(ctx, w, metav1.UpdateOptions{}) // want "stage-write:update Widget (finalizer)"
	return err
}

// enqueueWidget turns a Widget into a "namespace/name" key.
func (c *Controller) enqueueWidget(obj interface{}) { // want "stage-watch:handler"
	key, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	c.workqueue.Add(key) // want "stage-enqueue"
}

// handleSecret enqueues the Widget named by a Secret's owner annotation.
func (c *Controller) handleSecret(obj interface{}) {
	secret, ok := obj.(*corev1.Secret)
	if !ok {
		return
	}
	owner := secret.Annotations[ownerAnnotation]
	if owner == "" {
		return
	}
	w, err := c.widgetLister.Widgets(secret.Namespace).Get(owner) // decoy: reread (lister Get in an event handler)
	if err != nil {
		klog.Background().V(4).Info("Ignoring secret with unknown owner", "secret", klog.KObj(secret), "owner", owner)
		return
	}
	c.enqueueWidget(w)
}
