package main

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	corev1 "k8s.io/api/core/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

const (
	appKey            = "app"
	tierKey           = "tier"
	unmanagedNote     = "example.com/unmanaged"
	unmanagedNoteText = "owned by another controller"
)

// keeper keeps each app ConfigMap's Service in line with it.
type keeper struct {
	client     kubernetes.Interface
	configMaps corelisters.ConfigMapLister
	synced     cache.InformerSynced
	queue      workqueue.TypedRateLimitingInterface[string]
}

func newKeeper(client kubernetes.Interface, configMaps coreinformers.ConfigMapInformer) *keeper {
	k := &keeper{
		client:     client,
		configMaps: configMaps.Lister(),
		synced:     configMaps.Informer().HasSynced,
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = configMaps.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    k.enqueue,
		UpdateFunc: func(_, obj interface{}) { k.enqueue(obj) },
	})
	return k
}

func (k *keeper) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	k.queue.Add(key)
}

func (k *keeper) run(ctx context.Context, workers int) {
	defer k.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), k.synced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, k.work, time.Second)
	}
	<-ctx.Done()
}

func (k *keeper) work(ctx context.Context) {
	for {
		key, quit := k.queue.Get()
		if quit {
			return
		}
		if err := k.sync(ctx, key); err != nil {
			utilruntime.HandleError(err)
			k.queue.AddRateLimited(key) // want "requeue-error"
		} else {
			k.queue.Forget(key)
		}
		k.queue.Done(key)
	}
}

// sync brings the ConfigMap's Service in line with it.
func (k *keeper) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := k.configMaps.ConfigMaps(ns).Get(name) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return k.syncService(ctx, cm)
}

// syncService updates the live Service where it differs from the one the
// ConfigMap asks for, or marks a Service another controller owns.
func (k *keeper) syncService(ctx context.Context, cm *corev1.ConfigMap) error {
	live, err := k.client.CoreV1().Services(cm.Namespace).Get(ctx, cm.Name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	if ref := metav1.GetControllerOf(live); ref == nil || ref.UID != cm.UID {
		return k.markUnmanaged(ctx, live)
	}
	selector := map[string]string{appKey: cm.Data[appKey]}
	clone := live.DeepCopy()
	update := false
	if !equality.Semantic.DeepEqual(live.Spec.Selector, selector) { // want "drift:compare"
		clone.Spec.Selector = selector
		update = true
	}
	if live.Labels[tierKey] != cm.Data[tierKey] { // want "drift:compare"
		if clone.Labels == nil {
			clone.Labels = map[string]string{}
		}
		clone.Labels[tierKey] = cm.Data[tierKey]
		update = true
	}
	if update { // want "drift:compare"
		_, err = k.client.CoreV1().Services(cm.Namespace).Update(ctx, clone, metav1.UpdateOptions{}) // want "drift:apply"
	}
	return err
}

// markUnmanaged notes on a Service that another controller owns it.
func (k *keeper) markUnmanaged(ctx context.Context, live *corev1.Service) error {
	clone := live.DeepCopy()
	if clone.Annotations == nil {
		clone.Annotations = map[string]string{}
	}
	clone.Annotations[unmanagedNote] = unmanagedNoteText
	_, err := k.client.CoreV1().Services(live.Namespace).Update(ctx, clone, metav1.UpdateOptions{})
	return err
}
