package controllers

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "ServiceAccountController/finalizer-const" "ServiceAccountController/finalizer-add" "ServiceAccountController/finalizer-cleanup" "ServiceAccountController/finalizer-remove" "ServiceAccountController/condition-types" "ServiceAccountController/drift"

// ServiceAccountController waits for each ServiceAccount's token Secret.
// It registers with a loop that keeps its queue in a field of the loop's
// own: the loop's field and the controller's hold the same queue.
type ServiceAccountController struct {
	accounts corelisters.ServiceAccountLister
	secrets  corelisters.SecretLister
	queue    workqueue.TypedRateLimitingInterface[string]
}

// NewServiceAccountController wires the controller to its informers.
func NewServiceAccountController(accounts coreinformers.ServiceAccountInformer, secrets coreinformers.SecretInformer) *ServiceAccountController {
	c := &ServiceAccountController{
		accounts: accounts.Lister(),
		secrets:  secrets.Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = accounts.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	return c
}

// Register hands the loop the queue and the sync function.
func (c *ServiceAccountController) Register() (workqueue.TypedRateLimitingInterface[string], func(context.Context, string) error) {
	return c.queue, c.sync
}

// sync looks the account's token Secret up, and waits for it while it is
// not there.
func (c *ServiceAccountController) sync(_ context.Context, key string) error { // want "ServiceAccountController/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	sa, err := c.accounts.ServiceAccounts(namespace).Get(name) // want "ServiceAccountController/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := c.secrets.Secrets(namespace).Get(sa.Name + "-token"); errors.IsNotFound(err) {
		c.queue.AddAfter(key, 20*time.Second) // want "ServiceAccountController/requeue-success" "ServiceAccountController/trace:return" "ServiceAccountController/trace:constant"
		return nil
	}
	return err
}
