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

// This worker reaches its queue and its sync only through values: the Get
// through a one-method interface inside a closure the worker assigns and
// calls, the sync through a generic identity, the failed key handed to a
// helper that requeues it through another one-method interface. The event
// handler's AddRateLimited, through that same interface, is an enqueue.
// want-none "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// labelFinalizer keeps a ConfigMap until its label is accounted for.
const labelFinalizer = "labeler.example.com/finalizer" // want "finalizer-const"

// labelKey marks a ConfigMap the labeler has seen.
const labelKey = "labeler.example.com/seen"

// dequeuer is the part of a queue the worker takes keys from.
type dequeuer interface {
	Get() (string, bool)
}

// requeuer is the part of a queue a key is handed back to.
type requeuer interface {
	AddRateLimited(item string)
}

// via hands a function back unchanged.
func via[F any](f F) F {
	return f
}

// Labeler labels ConfigMaps.
type Labeler struct {
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
	synced cache.InformerSynced
	queue  workqueue.TypedRateLimitingInterface[string]
}

// NewLabeler returns a labeler fed by a ConfigMap informer.
func NewLabeler(client kubernetes.Interface, informer coreinformers.ConfigMapInformer) *Labeler {
	l := &Labeler{
		client: client,
		lister: informer.Lister(),
		synced: informer.Informer().HasSynced,
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    l.enqueue,
		UpdateFunc: func(_, obj interface{}) { l.enqueue(obj) },
	})
	return l
}

// enqueue hands an object's key to the workqueue, rate-limited.
func (l *Labeler) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	requeuer(l.queue).AddRateLimited(key) // decoy: requeue-error (an enqueue in an event handler)
}

// Run starts the workers and blocks until ctx is done.
func (l *Labeler) Run(ctx context.Context, workers int) {
	defer l.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), l.synced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, l.work, time.Second)
	}
	<-ctx.Done()
}

func (l *Labeler) work(ctx context.Context) {
	for l.next(ctx) {
	}
}

// next syncs one key; a failure goes to handleErr.
func (l *Labeler) next(ctx context.Context) bool {
	take := func() (string, bool) { return dequeuer(l.queue).Get() }
	key, shutdown := take()
	if shutdown {
		return false
	}
	defer l.queue.Done(key)
	if err := via(l.sync)(ctx, key); err != nil {
		l.handleErr(key, err)
		return true
	}
	l.queue.Forget(key)
	return true
}

// handleErr logs a failed sync and hands the key back, rate-limited.
func (l *Labeler) handleErr(key string, err error) {
	utilruntime.HandleError(fmt.Errorf("labeling %q: %w", key, err))
	requeuer(l.queue).AddRateLimited(key) // want "requeue-error"
}

// sync labels the ConfigMap of a key, once, and keeps a finalizer on it.
func (l *Labeler) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cm, err := via(l.lister.ConfigMaps(namespace).Get)(name) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cm.Labels[labelKey] == "true" { // want "drift:compare"
		return nil
	}
	cm = cm.DeepCopy()
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[labelKey] = "true"
	cm.Finalizers = func() []string { return append(cm.Finalizers, labelFinalizer) }()            // want "finalizer-add"
	_, err = via(l.client.CoreV1().ConfigMaps(namespace).Update)(ctx, cm, metav1.UpdateOptions{}) // want "drift:apply"
	return err
}
