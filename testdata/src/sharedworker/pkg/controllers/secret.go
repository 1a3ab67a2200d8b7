package controllers

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/sharedworker/pkg/worker"
)

// want-none "SecretController/finalizer-const" "SecretController/finalizer-add" "SecretController/finalizer-cleanup" "SecretController/finalizer-remove" "SecretController/condition-types" "SecretController/drift"

// SecretController checks that Secrets name a stamped ConfigMap.
type SecretController struct {
	secrets    corelisters.SecretLister
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[string]
	// audits holds the keys of Secrets another loop audits later.
	audits workqueue.TypedDelayingInterface[string]
}

// NewSecretController wires the controller to its informers.
func NewSecretController(secrets coreinformers.SecretInformer, configMaps coreinformers.ConfigMapInformer) *SecretController {
	c := &SecretController{
		secrets:    secrets.Lister(),
		configMaps: configMaps.Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		audits:     workqueue.NewTypedDelayingQueue[string](),
	}
	_, _ = secrets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	return c
}

// Run runs the shared worker until ctx is done.
func (c *SecretController) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, func(ctx context.Context) {
		worker.RunWorker(ctx, c.queue, "Secret", c.check)
	}, time.Second)
	<-ctx.Done()
}

// check fails a Secret whose ConfigMap is not stamped yet, so that it is
// checked again, and waits for a ConfigMap not there yet.
func (c *SecretController) check(_ context.Context, key string) error { // want "SecretController/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := c.secrets.Secrets(namespace).Get(name) // want "SecretController/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	c.audits.AddAfter(key, time.Hour) // decoy: a delayed add to another queue
	cm, err := c.configMaps.ConfigMaps(namespace).Get(secret.Labels["stamp.example.com/configmap"])
	if err != nil {
		if !errors.IsNotFound(err) {
			return err
		}
		c.queue.AddAfter(key, 30*time.Second) // want "SecretController/requeue-success" "SecretController/trace:return" "SecretController/trace:constant"
		return nil
	}
	if configMapOf(cm) == "" {
		return fmt.Errorf("ConfigMap %s/%s not stamped yet", namespace, cm.Name)
	}
	return nil
}
