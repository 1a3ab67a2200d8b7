package main

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// This worker only logs a failed sync and forgets the key: nothing brings a
// failed key back but the next event or resync. Its event handler enqueues
// with AddRateLimited, which is an enqueue, not an error requeue.
// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-error" "requeue-success" "interval-trace"

// stampLabel marks a ConfigMap the stamper has seen.
const stampLabel = "stamper.example.com/stamped"

// Stamper labels ConfigMaps.
type Stamper struct {
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
	synced cache.InformerSynced
	queue  workqueue.TypedRateLimitingInterface[string]
}

// NewStamper returns a stamper fed by a ConfigMap informer.
func NewStamper(client kubernetes.Interface, informer coreinformers.ConfigMapInformer) *Stamper {
	s := &Stamper{
		client: client,
		lister: informer.Lister(),
		synced: informer.Informer().HasSynced,
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    s.enqueue,
		UpdateFunc: func(_, obj interface{}) { s.enqueue(obj) },
	})
	return s
}

// enqueue hands an object's key to the workqueue, rate-limited.
func (s *Stamper) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	s.queue.AddRateLimited(key) // decoy: requeue-error (an enqueue in an event handler)
}

// Run starts the workers and blocks until ctx is done.
func (s *Stamper) Run(ctx context.Context, workers int) {
	defer s.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), s.synced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, s.work, time.Second)
	}
	<-ctx.Done()
}

func (s *Stamper) work(ctx context.Context) {
	for s.next(ctx) {
	}
}

// next syncs one key; a failure is only logged.
func (s *Stamper) next(ctx context.Context) bool {
	key, shutdown := s.queue.Get()
	if shutdown {
		return false
	}
	defer s.queue.Done(key)
	if err := s.sync(ctx, key); err != nil {
		utilruntime.HandleError(fmt.Errorf("stamping %q: %w", key, err))
	}
	s.queue.Forget(key)
	return true
}

// sync labels the ConfigMap of a key, once.
func (s *Stamper) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err // decoy: requeue-error (the worker only logs it)
	}
	cm, err := s.lister.ConfigMaps(namespace).Get(name) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cm.Labels[stampLabel] == "true" { // want "drift:compare"
		return nil
	}
	cm = cm.DeepCopy()
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[stampLabel] = "true"
	_, err = s.client.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "drift:apply"
	return err
}
