// Package secrets checks Secrets. Its controller implements the
// framework's interface through a wrapper that embeds it.
package secrets

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/embedworker/pkg/framework"
)

// want-none "secrets.controller/finalizer-const" "secrets.controller/finalizer-add" "secrets.controller/finalizer-cleanup" "secrets.controller/finalizer-remove" "secrets.controller/condition-types" "secrets.controller/requeue-success" "secrets.controller/interval-trace" "secrets.controller/drift"

type controller struct {
	secrets corelisters.SecretLister
	queue   workqueue.TypedRateLimitingInterface[string]
}

// Queue is the controller's queue.
func (c *controller) Queue() workqueue.TypedRateLimitingInterface[string] { return c.queue }

// Process labels one Secret.
func (c *controller) Process(_ context.Context, key string) error { // want "secrets.controller/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := c.secrets.Secrets(namespace).Get(name) // want "secrets.controller/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if secret.Labels["example.com/checked"] != "yes" {
		return fmt.Errorf("secret %s is not checked yet", key)
	}
	return nil
}

// wrapper makes the controller a framework implementation: its methods
// are the embedded controller's.
type wrapper struct {
	*controller
}

// New builds the Secret controller.
func New(secrets corelisters.SecretLister) *framework.Controller {
	c := &controller{secrets: secrets,
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	return framework.NewBuilder("secrets").For(&wrapper{controller: c}).Complete()
}
