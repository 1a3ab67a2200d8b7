// Command driftresult runs a client-go controller that copies each
// Secret's keys into a ConfigMap of the same name. It compares the live
// ConfigMap with the one it wants through a helper that returns a result
// struct, whose bool field says whether the two match, and updates the
// ConfigMap when they do not.
package main

import (
	"context"
	"reflect"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// KeyCopier keeps a ConfigMap with the keys of each Secret.
type KeyCopier struct {
	client     kubernetes.Interface
	secrets    corelisters.SecretLister
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

// comparison says how a live ConfigMap differs from the one wanted.
type comparison struct {
	match   bool
	reasons []string
}

// compareConfigMaps compares the live ConfigMap with the one wanted.
func compareConfigMaps(live, want *corev1.ConfigMap) *comparison {
	out := &comparison{match: true}
	if !reflect.DeepEqual(live.Data, want.Data) {
		out.match = false
		out.reasons = append(out.reasons, "data differs")
	}
	return out
}

func (c *KeyCopier) run() {
	for c.next() {
	}
}

func (c *KeyCopier) next() bool {
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

func (c *KeyCopier) sync(key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := c.secrets.Secrets(namespace).Get(name) // want "reread"
	if err != nil {
		return err
	}
	want := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: secret.Name, Namespace: secret.Namespace},
		Data:       map[string]string{},
	}
	for k := range secret.Data {
		want.Data[k] = "present"
	}
	live, err := c.configMaps.ConfigMaps(namespace).Get(name)
	if err != nil {
		return err
	}
	cmp := compareConfigMaps(live, want)
	if !cmp.match { // want "drift:compare"
		updated := live.DeepCopy()
		updated.Data = want.Data
		_, err = c.client.CoreV1().ConfigMaps(namespace).Update(context.TODO(), updated, metav1.UpdateOptions{}) // want "drift:apply"
		return err
	}
	return nil
}

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactory(client, 0)
	copier := &KeyCopier{
		client:     client,
		secrets:    factory.Core().V1().Secrets().Lister(),
		configMaps: factory.Core().V1().ConfigMaps().Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = factory.Core().V1().Secrets().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				copier.queue.Add(key)
			}
		},
	})
	stop := make(chan struct{})
	factory.Start(stop)
	go wait.Until(copier.run, time.Second, stop)
	<-stop
}
