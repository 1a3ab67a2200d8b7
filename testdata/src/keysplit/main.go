// Command keysplit runs two controllers on one work loop that splits each
// key into its namespace and name itself before it hands them on.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// processFunc syncs one object, named by its namespace and name.
type processFunc func(namespace, name string) error

// splitKey turns a queue item into the namespace and name of its key.
func splitKey(item any) (string, string, error) {
	key, ok := item.(string)
	if !ok {
		return "", "", fmt.Errorf("unexpected queue item %T", item)
	}
	return cache.SplitMetaNamespaceKey(key)
}

// processNext takes one key off q and hands its parts to process; a key
// whose sync fails comes back rate-limited.
func processNext(q workqueue.TypedRateLimitingInterface[any], process processFunc) bool {
	item, quit := q.Get()
	if quit {
		return false
	}
	defer q.Done(item)
	ns, name, err := splitKey(item)
	if err != nil {
		utilruntime.HandleError(err)
		q.Forget(item)
		return true
	}
	if err := process(ns, name); err != nil {
		utilruntime.HandleError(err)
		q.AddRateLimited(item) // want "requeue-error"
		return true
	}
	q.Forget(item)
	return true
}

// enqueue adds an object's key to q.
func enqueue(q workqueue.TypedRateLimitingInterface[any], obj any) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		q.Add(key)
	}
}

// Mirror is the outside store ConfigMaps are published to.
type Mirror interface {
	Has(key string) (bool, error)
	Put(key string, data map[string]string) error
	Remove(key string) error
}

// logMirror publishes by logging.
type logMirror struct{}

func (logMirror) Has(key string) (bool, error) { return false, nil }

func (logMirror) Put(key string, data map[string]string) error {
	klog.InfoS("publish", "key", key, "entries", len(data))
	return nil
}

func (logMirror) Remove(key string) error {
	klog.InfoS("unpublish", "key", key)
	return nil
}

// ConfigMapController publishes ConfigMaps to a mirror, and takes them
// off it when they are deleted. It keeps no finalizer.
type ConfigMapController struct {
	lister   corelisters.ConfigMapLister
	queue    workqueue.TypedRateLimitingInterface[any]
	mirror   Mirror
	recorder record.EventRecorder
}

// runWorker works the queue until it shuts down.
func (c *ConfigMapController) runWorker() {
	for processNext(c.queue, c.sync) {
	}
}

func (c *ConfigMapController) sync(namespace, name string) error { // want "ConfigMapController/reconcile-entry"
	cm, err := c.lister.ConfigMaps(namespace).Get(name) // want "ConfigMapController/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return c.publish(cm)
}

// publish runs one step against the mirror for cm.
func (c *ConfigMapController) publish(cm *corev1.ConfigMap) error {
	onMirror := func(op func(m Mirror, cm *corev1.ConfigMap) error) error {
		return op(c.mirror, cm)
	}
	deleting := cm.GetDeletionTimestamp() != nil
	there, err := c.mirror.Has(cm.Namespace + "/" + cm.Name)
	if err != nil {
		return err
	}
	switch {
	case !there && !deleting:
		c.note(cm, "Publishing")
		return onMirror(put)
	case deleting:
		c.note(cm, "Unpublishing")
		return onMirror(remove)
	default:
		c.note(cm, "Published")
	}
	return nil
}

// note records an Event about cm.
func (c *ConfigMapController) note(cm *corev1.ConfigMap, reason string) {
	if c.recorder != nil {
		c.recorder.Event(cm, corev1.EventTypeNormal, reason, "mirror "+reason)
	}
}

func put(m Mirror, cm *corev1.ConfigMap) error {
	return m.Put(cm.Namespace+"/"+cm.Name, cm.Data)
}

func remove(m Mirror, cm *corev1.ConfigMap) error { // want "ConfigMapController/finalizer-cleanup"
	return m.Remove(cm.Namespace + "/" + cm.Name)
}

// SecretController checks that Secrets are labelled.
type SecretController struct {
	lister corelisters.SecretLister
	queue  workqueue.TypedRateLimitingInterface[any]
}

// runWorker works the queue until it shuts down.
func (c *SecretController) runWorker() {
	for processNext(c.queue, c.check) {
	}
}

// want-none "SecretController/finalizer-cleanup"

func (c *SecretController) check(namespace, name string) error { // want "SecretController/reconcile-entry"
	s, err := c.lister.Secrets(namespace).Get(name) // want "SecretController/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if s.Labels["keysplit.example.com/owner"] == "" {
		return fmt.Errorf("secret %s/%s has no owner label yet", namespace, name)
	}
	return nil
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	broadcaster := record.NewBroadcaster()
	broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: client.CoreV1().Events("")})
	recorder := broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: "keysplit"})

	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	cms := &ConfigMapController{
		lister:   factory.Core().V1().ConfigMaps().Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]()),
		mirror:   logMirror{},
		recorder: recorder,
	}
	secrets := &SecretController{
		lister: factory.Core().V1().Secrets().Lister(),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]()),
	}
	handlers := func(q workqueue.TypedRateLimitingInterface[any]) cache.ResourceEventHandlerFuncs {
		return cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { enqueue(q, obj) },
			UpdateFunc: func(_, obj any) { enqueue(q, obj) },
			DeleteFunc: func(obj any) { enqueue(q, obj) },
		}
	}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(handlers(cms.queue))
	_, _ = factory.Core().V1().Secrets().Informer().AddEventHandler(handlers(secrets.queue))
	factory.Start(ctx.Done())
	go wait.Until(cms.runWorker, time.Second, ctx.Done())
	go wait.Until(secrets.runWorker, time.Second, ctx.Done())
	<-ctx.Done()
	cms.queue.ShutDown()
	secrets.queue.ShutDown()
}
