package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
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

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

const (
	// uidIndex indexes Secrets by their UID, the key of the queue.
	uidIndex = "uid"
	// mirrorAnnotation asks for a Secret to be mirrored.
	mirrorAnnotation = "mirror.example.com/enabled"
	// copyFinalizer holds a mirror ConfigMap until the copy is audited:
	// a finalizer of the child, not of the Secret.
	copyFinalizer = "mirror.example.com/audit"
)

// Mirror copies annotated Secrets into ConfigMaps.
type Mirror struct {
	client   kubernetes.Interface
	secrets  cache.Indexer
	mirrors  corelisters.ConfigMapLister
	synced   []cache.InformerSynced
	queue    workqueue.TypedRateLimitingInterface[string]
	lastSeen sync.Map
}

// NewMirror returns a mirror fed by Secret and ConfigMap informers.
func NewMirror(client kubernetes.Interface, secrets coreinformers.SecretInformer, configMaps coreinformers.ConfigMapInformer) *Mirror {
	m := &Mirror{
		client: client,
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		synced: []cache.InformerSynced{secrets.Informer().HasSynced, configMaps.Informer().HasSynced},
	}
	secrets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    m.enqueue,
		UpdateFunc: func(_, obj interface{}) { m.enqueue(obj) },
	})
	utilruntime.Must(secrets.Informer().AddIndexers(cache.Indexers{uidIndex: byUID}))
	m.secrets = secrets.Informer().GetIndexer()
	m.mirrors = configMaps.Lister()
	return m
}

func byUID(obj interface{}) ([]string, error) {
	o, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("not an object: %T", obj)
	}
	return []string{string(o.GetUID())}, nil
}

// enqueue hands a Secret's UID to the queue.
func (m *Mirror) enqueue(obj interface{}) {
	o, ok := obj.(metav1.Object)
	if !ok {
		return
	}
	m.lastSeen.Store(string(o.GetUID()), obj)
	m.queue.Add(string(o.GetUID()))
}

// Run starts the workers and blocks until ctx is done.
func (m *Mirror) Run(ctx context.Context, workers int) {
	defer m.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), m.synced...) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, m.work, time.Second)
	}
	<-ctx.Done()
}

func (m *Mirror) work(ctx context.Context) {
	for m.next(ctx) {
	}
}

// next syncs one UID, rate-limiting a failed one.
func (m *Mirror) next(ctx context.Context) bool {
	uid, shutdown := m.queue.Get()
	if shutdown {
		return false
	}
	defer m.queue.Done(uid)
	if err := m.sync(ctx, uid); err != nil {
		utilruntime.HandleError(err)
		m.queue.AddRateLimited(uid) // want "requeue-error"
		return true
	}
	m.queue.Forget(uid)
	return true
}

// sync reads the Secret of a UID back from the index, or the last copy the
// handler saw when the index no longer has it, and mirrors it.
func (m *Mirror) sync(ctx context.Context, uid string) error { // want "reconcile-entry"
	objs, err := m.secrets.ByIndex(uidIndex, uid) // want "reread"
	if err != nil {
		return err
	}
	var obj interface{}
	if len(objs) > 0 {
		obj = objs[0]
	} else {
		last, found := m.lastSeen.Load(uid)
		if !found {
			return nil
		}
		obj = last
	}
	return m.mirror(ctx, obj)
}

// mirror creates the ConfigMap of an annotated Secret, when it is missing.
func (m *Mirror) mirror(ctx context.Context, obj interface{}) error {
	secret, ok := obj.(*corev1.Secret)
	if !ok {
		return fmt.Errorf("not a Secret: %T", obj)
	}
	if secret.Annotations[mirrorAnnotation] != "true" {
		return nil
	}
	_, err := m.mirrors.ConfigMaps(secret.Namespace).Get(secret.Name)
	if err == nil {
		return nil
	}
	if !errors.IsNotFound(err) {
		return err
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:            secret.Name,
			Namespace:       secret.Namespace,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(secret, corev1.SchemeGroupVersion.WithKind("Secret"))},
		},
		BinaryData: secret.Data,
	}
	cm.Finalizers = append(cm.Finalizers, copyFinalizer) // decoy: finalizer-add (the child's)
	_, err = m.client.CoreV1().ConfigMaps(cm.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	return err
}
