// Command finsetter runs a client-go controller that keeps a finalizer on
// each ConfigMap of a label and deletes the ConfigMap's Secret before it
// lets the ConfigMap go. Its finalizer is a package variable, and one
// setter helper writes every change of the list: the callers build the
// list, with the finalizer appended or removed.
package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "condition-types" "requeue-success" "interval-trace" "drift"

// finalizerName is the finalizer the controller keeps: a variable nothing
// writes after its constant initialiser.
var finalizerName = "example.com/secret-cleanup" // want "finalizer-const"

// SecretGuard keeps each ConfigMap's Secret until the ConfigMap goes.
type SecretGuard struct {
	client     kubernetes.Interface
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

func (c *SecretGuard) run() {
	for c.next() {
	}
}

func (c *SecretGuard) next() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key) // want "requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *SecretGuard) sync(key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := c.configMaps.ConfigMaps(namespace).Get(name) // want "reread"
	if err != nil {
		return err
	}
	if cm.DeletionTimestamp != nil {
		if err := c.deleteSecret(cm); err != nil {
			return err
		}
		return c.setFinalizers(cm, without(cm.Finalizers, finalizerName)) // want "finalizer-remove"
	}
	if !has(cm.Finalizers, finalizerName) {
		return c.setFinalizers(cm, append(cm.Finalizers, finalizerName)) // want "finalizer-add"
	}
	return nil
}

// deleteSecret deletes the Secret of a ConfigMap's name.
func (c *SecretGuard) deleteSecret(cm *corev1.ConfigMap) error { // want "finalizer-cleanup"
	err := c.client.CoreV1().Secrets(cm.Namespace).Delete(context.TODO(), cm.Name, metav1.DeleteOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// setFinalizers writes the list it is handed as the ConfigMap's
// finalizers.
func (c *SecretGuard) setFinalizers(cm *corev1.ConfigMap, list []string) error {
	cp := cm.DeepCopy()
	cp.Finalizers = list
	_, err := c.client.CoreV1().ConfigMaps(cp.Namespace).Update(context.TODO(), cp, metav1.UpdateOptions{})
	return err
}

// has reports whether a list holds a string.
func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// without is the list without a string.
func without(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactory(client, 0)
	guard := &SecretGuard{
		client:     client,
		configMaps: factory.Core().V1().ConfigMaps().Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				guard.queue.Add(key)
			}
		},
	})
	stop := make(chan struct{})
	factory.Start(stop)
	go wait.Until(guard.run, time.Second, stop)
	<-stop
}
