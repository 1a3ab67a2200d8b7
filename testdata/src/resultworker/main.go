// Command resultworker runs two client-go controllers whose sync functions
// return a result of the tree's own, saying when the key should come back,
// rather than calling the queue themselves. One worker loop, shared by
// both, turns that result into queue calls: AddRateLimited on an error,
// AddAfter by the delay the result carries, Forget otherwise. Which
// requeue that AddAfter is depends on the sync's return that set the
// delay: a retry after a failure, a wait on something else, or the
// interval of the steady state.
package main

import (
	"time"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// Outcome says whether and when a key comes back after a sync that did
// not fail.
type Outcome struct {
	Again bool
	Delay time.Duration
}

// finish hands back the outcome and error it is handed: every return of
// the syncs goes through it.
func finish(o Outcome, err error) (Outcome, error) {
	return o, err
}

const (
	// retryDelay is how long a key waits after a failed read.
	retryDelay = 5 * time.Second
	// secretsDelay is how long a ConfigMap waits for Secrets to appear.
	secretsDelay = 20 * time.Second // want "ConfigMapChecker/trace:constant"
	// refreshEvery is how often a Secret is looked at again.
	refreshEvery = 10 * time.Minute // want "SecretRefresher/trace:constant"
)

// processNext takes one key off a queue, hands it to sync and acts on
// what the sync returned.
func processNext(queue workqueue.TypedRateLimitingInterface[string], sync func(string) (Outcome, error)) bool {
	key, quit := queue.Get()
	if quit {
		return false
	}
	defer queue.Done(key)
	out, err := sync(key)
	switch {
	case err != nil:
		queue.AddRateLimited(key) // want "requeue-error"
	case out.Delay > 0:
		queue.Forget(key)
		queue.AddAfter(key, out.Delay)
	case out.Again:
		queue.AddRateLimited(key)
	default:
		queue.Forget(key)
	}
	return true
}

// ConfigMapChecker waits, for each ConfigMap, until its namespace holds
// Secrets; once it does, the ConfigMap is left alone until it changes.
type ConfigMapChecker struct {
	configMaps corelisters.ConfigMapLister
	secrets    corelisters.SecretLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

func (c *ConfigMapChecker) run() {
	for processNext(c.queue, c.sync) {
	}
}

func (c *ConfigMapChecker) sync(key string) (Outcome, error) { // want "ConfigMapChecker/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return finish(Outcome{}, nil)
	}
	cm, err := c.configMaps.ConfigMaps(namespace).Get(name) // want "ConfigMapChecker/reread"
	if err != nil {
		return finish(Outcome{Delay: retryDelay}, nil)
	}
	secrets, err := c.secrets.Secrets(cm.Namespace).List(labels.Everything())
	if err != nil {
		return finish(Outcome{}, err)
	}
	if len(secrets) == 0 {
		return finish(Outcome{Delay: secretsDelay}, nil) // want "ConfigMapChecker/requeue-success" "ConfigMapChecker/trace:return"
	}
	return finish(Outcome{}, nil)
}

// SecretRefresher looks at each Secret again every ten minutes.
type SecretRefresher struct {
	secrets corelisters.SecretLister
	queue   workqueue.TypedRateLimitingInterface[string]
}

func (c *SecretRefresher) run() {
	for processNext(c.queue, c.sync) {
	}
}

func (c *SecretRefresher) sync(key string) (Outcome, error) { // want "SecretRefresher/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return finish(Outcome{}, nil)
	}
	secret, err := c.secrets.Secrets(namespace).Get(name) // want "SecretRefresher/reread"
	if err != nil {
		return finish(Outcome{Delay: retryDelay}, nil)
	}
	if len(secret.Data) == 0 {
		return finish(Outcome{}, nil)
	}
	return finish(Outcome{Delay: refreshEvery}, nil) // want "SecretRefresher/requeue-success" "SecretRefresher/trace:return"
}

func enqueue(queue workqueue.TypedRateLimitingInterface[string]) cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				queue.Add(key)
			}
		},
	}
}

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactory(client, 0)
	checker := &ConfigMapChecker{
		configMaps: factory.Core().V1().ConfigMaps().Lister(),
		secrets:    factory.Core().V1().Secrets().Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	refresher := &SecretRefresher{
		secrets: factory.Core().V1().Secrets().Lister(),
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(enqueue(checker.queue))
	_, _ = factory.Core().V1().Secrets().Informer().AddEventHandler(enqueue(refresher.queue))
	stop := make(chan struct{})
	factory.Start(stop)
	go wait.Until(checker.run, time.Second, stop)
	go wait.Until(refresher.run, time.Second, stop)
	<-stop
}
