// Command waiter checks that each Secret names a ConfigMap, and waits
// for one that is not there yet through a helper that adds the key again
// after a delay.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	kubeinformers "k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// Waiter checks Secrets against the ConfigMaps they name.
type Waiter struct {
	secrets    corelisters.SecretLister
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

// newWaiter wires the controller to its informers.
func newWaiter(secrets coreinformers.SecretInformer, configMaps coreinformers.ConfigMapInformer) *Waiter {
	w := &Waiter{
		secrets:    secrets.Lister(),
		configMaps: configMaps.Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = secrets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				w.queue.Add(key)
			}
		},
	})
	return w
}

// run runs the worker until ctx is done.
func (w *Waiter) run(ctx context.Context) {
	defer w.queue.ShutDown()
	go wait.UntilWithContext(ctx, w.work, time.Second)
	<-ctx.Done()
}

// work syncs keys until the queue shuts down.
func (w *Waiter) work(ctx context.Context) {
	for w.next() {
	}
}

// next syncs one key: a failure comes back rate-limited.
func (w *Waiter) next() bool {
	key, quit := w.queue.Get()
	if quit {
		return false
	}
	defer w.queue.Done(key)
	if err := w.sync(key); err != nil {
		w.queue.AddRateLimited(key) // want "requeue-error"
		return true
	}
	w.queue.Forget(key)
	return true
}

// sync checks one Secret; a ConfigMap not there yet is waited for.
func (w *Waiter) sync(key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := w.secrets.Secrets(namespace).Get(name) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	cm, err := w.configMaps.ConfigMaps(namespace).Get(secret.Labels["example.com/configmap"])
	if err != nil {
		if !errors.IsNotFound(err) {
			return err
		}
		w.later(key)
		return nil
	}
	if cm.Data["ready"] != "true" {
		return fmt.Errorf("ConfigMap %s/%s not ready", namespace, cm.Name)
	}
	return nil
}

// later adds the key again once the ConfigMap may be there.
func (w *Waiter) later(key string) {
	w.queue.AddAfter(key, 30*time.Second) // want "requeue-success" "trace:return" "trace:constant"
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
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	w := newWaiter(factory.Core().V1().Secrets(), factory.Core().V1().ConfigMaps())
	factory.Start(ctx.Done())
	w.run(ctx)
}
