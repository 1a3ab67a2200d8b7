// Package configmaps holds the controller that stamps labelled ConfigMaps
// with the operator's settings, on the shared work loop.
package configmaps

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"example.com/fixtures/splitsync/pkg/controllers/util"
)

// want-none "configmaps.Controller/finalizer-const" "configmaps.Controller/finalizer-add" "configmaps.Controller/finalizer-cleanup" "configmaps.Controller/finalizer-remove" "configmaps.Controller/condition-types"

// maxRetries is how often a failing ConfigMap is retried.
const maxRetries = 5

// Labels and annotations the controller reads and writes.
const (
	managedLabel     = "splitsync.example.com/managed"
	settingsVersion  = "splitsync.example.com/settings-version"
	settingsName     = "splitsync-settings"
	settingsFallback = "unset"
)

// Controller stamps each managed ConfigMap with the version of the
// operator's settings ConfigMap.
type Controller struct {
	client            kubernetes.Interface
	lister            corelisters.ConfigMapLister
	queue             workqueue.TypedRateLimitingInterface[string]
	settingsNamespace string
	// resync is how often a ConfigMap is stamped again.
	resync time.Duration // want "configmaps.Controller/trace:controller-field"
}

// New wires the controller to the ConfigMap informer.
func New(client kubernetes.Interface, informer coreinformers.ConfigMapInformer, settingsNamespace string, resync time.Duration) *Controller {
	c := &Controller{
		client:            client,
		lister:            informer.Lister(),
		queue:             workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		settingsNamespace: settingsNamespace,
		resync:            resync, // want "configmaps.Controller/trace:set"
	}
	_, _ = informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
		UpdateFunc: func(_, obj interface{}) {
			c.enqueue(obj)
		},
	})
	return c
}

func (c *Controller) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	c.queue.Add(key)
}

// Run runs the shared work loop with the controller's reconcile until ctx
// is done.
func (c *Controller) Run(ctx context.Context, workers int) {
	util.Run(ctx, klog.FromContext(ctx), "configmaps", time.Second, c.queue, workers, maxRetries, c.reconcile)
}

// reconcile stamps one ConfigMap and asks for it again after the resync
// interval.
func (c *Controller) reconcile(ctx context.Context, logger klog.Logger, key, namespace, name string) error { // want "configmaps.Controller/reconcile-entry"
	// The settings are a ConfigMap too, read by a fixed name: not the
	// object the key names.
	version := settingsFallback
	if settings, err := c.lister.ConfigMaps(c.settingsNamespace).Get(settingsName); err == nil {
		version = settings.ResourceVersion
	}
	cm, err := c.lister.ConfigMaps(namespace).Get(name) // want "configmaps.Controller/reread"
	if errors.IsNotFound(err) {
		logger.V(4).Info("ConfigMap is gone", "key", key)
		return nil
	}
	if err != nil {
		return err
	}
	if cm.Labels[managedLabel] != "true" {
		return nil
	}
	if err := c.stamp(ctx, cm, version); err != nil {
		return err
	}
	c.queue.AddAfter(key, c.resync) // want "configmaps.Controller/requeue-success" "configmaps.Controller/trace:return"
	return nil
}

// stamp records the settings version on a copy of cm, unless cm holds it.
func (c *Controller) stamp(ctx context.Context, cm *corev1.ConfigMap, version string) error {
	if cm.Annotations[settingsVersion] == version { // want "configmaps.Controller/drift:compare"
		return nil
	}
	cm = cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[settingsVersion] = version
	_, err := c.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "configmaps.Controller/drift:apply"
	return err
}
