package main

import (
	"context"
	"time"

	"example.com/fixtures/queuelib/requeue"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "SecretStamper/finalizer-const" "SecretStamper/finalizer-add" "SecretStamper/finalizer-cleanup" "SecretStamper/finalizer-remove" "SecretStamper/condition-types"
// want-none "SecretStamper/requeue-success" "SecretStamper/interval-trace"

// sourceLabel names the ConfigMap a Secret takes its stamp from.
const sourceLabel = "depqueue.example.com/source"

// SecretStamper copies a ConfigMap's version into the Secrets that name
// it. It is event-driven: its worker hands the queue to the helper module
// only to forget a key's failures.
type SecretStamper struct {
	client     kubernetes.Interface
	lister     corelisters.SecretLister
	configMaps corelisters.ConfigMapLister
	queue      requeue.Queue
}

// NewSecretStamper returns a stamper fed by the Secret informer, reading
// ConfigMaps from theirs.
func NewSecretStamper(client kubernetes.Interface, informer coreinformers.SecretInformer, configMaps coreinformers.ConfigMapInformer) *SecretStamper {
	c := &SecretStamper{
		client:     client,
		lister:     informer.Lister(),
		configMaps: configMaps.Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				c.queue.Add(ref)
			}
		},
	})
	return c
}

// Run runs one worker until ctx is done.
func (c *SecretStamper) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func (c *SecretStamper) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *SecretStamper) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "SecretStamper/requeue-error"
		return true
	}
	requeue.Settle(c.queue, key) // decoy: the helper only forgets the key
	return true
}

// sync stamps one Secret with its ConfigMap's version.
func (c *SecretStamper) sync(ctx context.Context, key cache.ObjectName) error { // want "SecretStamper/reconcile-entry"
	secret, err := c.lister.Secrets(key.Namespace).Get(key.Name) // want "SecretStamper/reread"
	if err != nil {
		return err
	}
	cm, err := c.configMaps.ConfigMaps(key.Namespace).Get(secret.Labels[sourceLabel])
	if err != nil {
		return err
	}
	if secret.Annotations[sourceLabel] != cm.ResourceVersion { // want "SecretStamper/drift:compare"
		secret = secret.DeepCopy()
		if secret.Annotations == nil {
			secret.Annotations = map[string]string{}
		}
		secret.Annotations[sourceLabel] = cm.ResourceVersion
		_, err = c.client.CoreV1().Secrets(secret.Namespace).Update(ctx, secret, metav1.UpdateOptions{}) // want "SecretStamper/drift:apply"
	}
	return err
}
