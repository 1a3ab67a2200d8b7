// Package controllers holds the operator's controllers; each runs the
// shared worker with its own queue and sync function.
package controllers

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/sharedworker/pkg/worker"
)

// want-none "ConfigMapController/finalizer-const" "ConfigMapController/finalizer-add" "ConfigMapController/finalizer-cleanup" "ConfigMapController/finalizer-remove" "ConfigMapController/condition-types" "ConfigMapController/drift"

// stampAnnotation records when a ConfigMap was last stamped.
const stampAnnotation = "stamp.example.com/at"

// ConfigMapController stamps ConfigMaps on an interval.
type ConfigMapController struct {
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
	queue  workqueue.TypedRateLimitingInterface[string]
	// refresh is how often a ConfigMap is stamped again.
	refresh time.Duration // want "ConfigMapController/trace:controller-field"
	// enqueueAfter brings a key back after a delay.
	enqueueAfter func(key string, after time.Duration)
}

// NewConfigMapController wires the controller to its informer.
func NewConfigMapController(client kubernetes.Interface, informer coreinformers.ConfigMapInformer, refresh time.Duration) *ConfigMapController {
	c := &ConfigMapController{
		client:  client,
		lister:  informer.Lister(),
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		refresh: refresh, // want "ConfigMapController/trace:set"
	}
	c.enqueueAfter = func(key string, after time.Duration) {
		requeueLater(c.queue, key, after)
	}
	_, _ = informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
		UpdateFunc: func(_, obj interface{}) {
			// An update is an enqueue, rate-limited: not an error requeue.
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.AddRateLimited(key)
			}
		},
	})
	return c
}

// requeueLater adds a key back to a queue after a delay.
func requeueLater(queue workqueue.TypedRateLimitingInterface[string], key string, after time.Duration) {
	queue.AddAfter(key, after) // want "ConfigMapController/requeue-success" "ConfigMapController/trace:return"
}

// Run runs the shared worker until ctx is done.
func (c *ConfigMapController) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(ctx context.Context) {
		worker.RunWorker(ctx, c.queue, "ConfigMap", c.sync)
	}, time.Second)
	<-ctx.Done()
}

// sync stamps one ConfigMap and asks for it again after the refresh interval.
func (c *ConfigMapController) sync(ctx context.Context, key string) error { // want "ConfigMapController/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := c.lister.ConfigMaps(namespace).Get(name) // want "ConfigMapController/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	cm = cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[stampAnnotation] = time.Now().Format(time.RFC3339)
	if _, err := c.client.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "ConfigMapController/write-always" "ConfigMapController/hot-loop"
		return err
	}
	c.enqueueAfter(key, c.refresh)
	return nil
}

// configMapOf is what a ConfigMap's stamp says, for the Secret controller.
func configMapOf(obj *corev1.ConfigMap) string { return obj.Annotations[stampAnnotation] }
