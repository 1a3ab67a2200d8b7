package main

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

const (
	holderLabel = "example.com/lock-holder"
	lockSuffix  = "-lock"
	settingsKey = "settings"
)

// lockKeeper keeps each Job's settings ConfigMap and its lock.
type lockKeeper struct {
	client     kubernetes.Interface
	jobs       batchlisters.JobLister
	configMaps corelisters.ConfigMapLister
	synced     []cache.InformerSynced
	queue      workqueue.TypedRateLimitingInterface[string]
}

func newLockKeeper(client kubernetes.Interface, jobs batchinformers.JobInformer, configMaps coreinformers.ConfigMapInformer) *lockKeeper {
	k := &lockKeeper{
		client:     client,
		jobs:       jobs.Lister(),
		configMaps: configMaps.Lister(),
		synced:     []cache.InformerSynced{jobs.Informer().HasSynced, configMaps.Informer().HasSynced},
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = jobs.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    k.enqueue,
		UpdateFunc: func(_, obj interface{}) { k.enqueue(obj) },
	})
	return k
}

func (k *lockKeeper) enqueue(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		utilruntime.HandleError(err)
		return
	}
	k.queue.Add(key)
}

func (k *lockKeeper) run(ctx context.Context, workers int) {
	defer k.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), k.synced...) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, k.work, time.Second)
	}
	<-ctx.Done()
}

func (k *lockKeeper) work(ctx context.Context) {
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

// sync keeps the Job's settings, and holds its lock while it runs.
func (k *lockKeeper) sync(ctx context.Context, key string) (err error) { // want "reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	job, err := k.jobs.Jobs(ns).Get(name) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	// A finished Job keeps nothing: its own status, tested against a
	// constant, says so.
	if job.Status.Succeeded == 1 && job.DeletionTimestamp == nil {
		return nil
	}
	status := job.Status
	defer func() {
		// The pass's view of the status against the one read: a
		// report, never state to correct.
		if job.Status.Active != status.Active {
			lock := job.Name + lockSuffix
			if derr := k.client.CoreV1().ConfigMaps(ns).Delete(ctx, lock, metav1.DeleteOptions{}); derr != nil && err == nil {
				err = derr
			}
		}
	}()
	if err := k.syncSettings(ctx, job); err != nil {
		return err
	}
	held, err := k.heldByOther(job)
	if err != nil {
		return err
	}
	if held {
		return nil
	}
	status.Active = 1
	lock := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name: job.Name + lockSuffix, Namespace: ns, Labels: map[string]string{holderLabel: job.Name},
	}}
	_, err = k.client.CoreV1().ConfigMaps(ns).Create(ctx, lock, metav1.CreateOptions{})
	if errors.IsAlreadyExists(err) {
		return nil
	}
	return err
}

// heldByOther reports whether another Job holds a lock in the Job's
// namespace: which Job a lock names, not what state it is in.
func (k *lockKeeper) heldByOther(job *batchv1.Job) (bool, error) {
	locks, err := k.configMaps.ConfigMaps(job.Namespace).List(labels.Everything())
	if err != nil {
		return false, err
	}
	for _, cm := range locks {
		if cm.Name == job.Name+lockSuffix {
			continue
		}
		if holder, ok := cm.Labels[holderLabel]; ok && holder != job.Name {
			return true, nil
		}
	}
	return false, nil
}

// syncSettings keeps the ConfigMap of the Job's settings in line with the
// Job's annotation.
func (k *lockKeeper) syncSettings(ctx context.Context, job *batchv1.Job) error {
	want := map[string]string{settingsKey: job.Spec.Template.Annotations[settingsKey]}
	live, err := k.configMaps.ConfigMaps(job.Namespace).Get(job.Name)
	if err != nil {
		return err
	}
	if equality.Semantic.DeepEqual(live.Data, want) { // want "drift:compare"
		return nil
	}
	clone := live.DeepCopy()
	clone.Data = want
	_, err = k.client.CoreV1().ConfigMaps(job.Namespace).Update(ctx, clone, metav1.UpdateOptions{}) // want "drift:apply"
	return err
}
