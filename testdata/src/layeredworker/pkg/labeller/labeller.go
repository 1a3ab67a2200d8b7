// Package labeller holds one controller type that runs two sync functions,
// one for ConfigMaps and one for Secrets, each on its own queue through
// the shared work loop.
package labeller

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/layeredworker/pkg/queueworker"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// seenLabel marks an object the labeller has seen.
const seenLabel = "example.com/seen"

// Labeller labels ConfigMaps and Secrets once.
type Labeller struct {
	client      kubernetes.Interface
	configMaps  corelisters.ConfigMapLister
	secrets     corelisters.SecretLister
	cmQueue     workqueue.TypedRateLimitingInterface[string]
	secretQueue workqueue.TypedRateLimitingInterface[string]
}

// New wires the labeller to its informers.
func New(client kubernetes.Interface, configMaps coreinformers.ConfigMapInformer, secrets coreinformers.SecretInformer) *Labeller {
	l := &Labeller{
		client:      client,
		configMaps:  configMaps.Lister(),
		secrets:     secrets.Lister(),
		cmQueue:     workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		secretQueue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = configMaps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				l.cmQueue.Add(key)
			}
		},
	})
	_, _ = secrets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				l.secretQueue.Add(key)
			}
		},
	})
	return l
}

// Run runs a worker for each queue until ctx is done.
func (l *Labeller) Run(ctx context.Context) {
	defer l.cmQueue.ShutDown()
	defer l.secretQueue.ShutDown()
	go l.runWorker(ctx, l.cmQueue, l.syncConfigMap)
	go l.runWorker(ctx, l.secretQueue, l.syncSecret)
	<-ctx.Done()
}

// runWorker runs the shared work loop on one queue, again every second.
func (l *Labeller) runWorker(ctx context.Context, queue workqueue.TypedRateLimitingInterface[string], sync queueworker.SyncFunc) {
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		queueworker.Run(ctx, queue, sync)
	}, time.Second)
}

// syncConfigMap labels one ConfigMap.
func (l *Labeller) syncConfigMap(ctx context.Context, key string) error { // want "Labeller.syncConfigMap/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := l.configMaps.ConfigMaps(namespace).Get(name) // want "Labeller.syncConfigMap/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cm.Labels[seenLabel] == "" { // want "Labeller.syncConfigMap/drift:compare"
		cm = cm.DeepCopy()
		cm.Labels = map[string]string{seenLabel: "yes"}
		_, err = l.client.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "Labeller.syncConfigMap/drift:apply"
	}
	return err
}

// syncSecret labels one Secret.
func (l *Labeller) syncSecret(ctx context.Context, key string) error { // want "Labeller.syncSecret/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := l.secrets.Secrets(namespace).Get(name) // want "Labeller.syncSecret/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if secret.Labels[seenLabel] == "" { // want "Labeller.syncSecret/drift:compare"
		secret = secret.DeepCopy()
		secret.Labels = map[string]string{seenLabel: "yes"}
		_, err = l.client.CoreV1().Secrets(namespace).Update(ctx, secret, metav1.UpdateOptions{}) // want "Labeller.syncSecret/drift:apply"
	}
	return err
}
