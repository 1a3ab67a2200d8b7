package main

import (
	"context"
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
	"k8s.io/klog/v2"

	corev1 "k8s.io/api/core/v1"
)

// The worker only logs a failed sync; the sync itself puts a ConfigMap it
// could not link back on the queue through the event handlers' enqueue
// helper, handing it the object it re-read: a requeue at once. Enqueueing
// the linked ConfigMap (another object) is no requeue of this one.
// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// linkAnnotation names the ConfigMap whose data a ConfigMap takes.
const linkAnnotation = "linker.example.com/from"

// Linker copies linked data into ConfigMaps.
type Linker struct {
	client kubernetes.Interface
	lister corelisters.ConfigMapLister
	synced cache.InformerSynced
	queue  workqueue.TypedInterface[string]
}

// NewLinker returns a linker fed by a ConfigMap informer.
func NewLinker(client kubernetes.Interface, informer coreinformers.ConfigMapInformer) *Linker {
	l := &Linker{
		client: client,
		lister: informer.Lister(),
		synced: informer.Informer().HasSynced,
		queue:  workqueue.NewTyped[string](),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    l.enqueue,
		UpdateFunc: func(_, obj interface{}) { l.enqueue(obj) },
	})
	return l
}

// enqueue adds an object's key to the queue.
func (l *Linker) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	l.queue.Add(key)
}

// Run starts the workers and blocks until ctx is done.
func (l *Linker) Run(ctx context.Context, workers int) {
	defer l.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), l.synced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, l.work, time.Second)
	}
	<-ctx.Done()
}

func (l *Linker) work(ctx context.Context) {
	for l.next(ctx) {
	}
}

func (l *Linker) next(ctx context.Context) bool {
	key, shutdown := l.queue.Get()
	if shutdown {
		return false
	}
	defer l.queue.Done(key)
	if err := l.sync(ctx, key); err != nil {
		klog.ErrorS(err, "Linking", "key", key)
	}
	return true
}

func (l *Linker) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	cm, err := l.lister.ConfigMaps(namespace).Get(name) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return l.link(ctx, cm)
}

// link copies the linked ConfigMap's data; the linked one is queued too,
// and the ConfigMap itself goes back on the queue when the copy fails.
func (l *Linker) link(ctx context.Context, cm *corev1.ConfigMap) error {
	from, err := l.lister.ConfigMaps(cm.Namespace).Get(cm.Annotations[linkAnnotation])
	if err != nil {
		return err
	}
	l.enqueue(from) // decoy: requeue-error (another object)
	linked := cm.DeepCopy()
	linked.Data = from.Data
	if _, err := l.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, linked, metav1.UpdateOptions{}); err != nil { // want "write-always"
		l.enqueue(cm) // want "requeue-error"
		return err
	}
	return nil
}
