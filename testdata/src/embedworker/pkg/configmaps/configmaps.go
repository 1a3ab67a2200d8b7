// Package configmaps checks ConfigMaps. Its controller hands the
// framework a wrapper embedding it by value; auditor implements the
// framework's interface too but is never built into a controller.
package configmaps

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/embedworker/pkg/framework"
)

// want-none "configmaps.controller/finalizer-const" "configmaps.controller/finalizer-add" "configmaps.controller/finalizer-cleanup" "configmaps.controller/finalizer-remove" "configmaps.controller/condition-types" "configmaps.controller/requeue-success" "configmaps.controller/interval-trace" "configmaps.controller/drift"

type controller struct {
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

// Queue is the controller's queue.
func (c *controller) Queue() workqueue.TypedRateLimitingInterface[string] { return c.queue }

// Process checks one ConfigMap.
func (c *controller) Process(_ context.Context, key string) error { // want "configmaps.controller/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := c.configMaps.ConfigMaps(namespace).Get(name) // want "configmaps.controller/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, ok := cm.Data["checked"]; !ok {
		return fmt.Errorf("configmap %s is not checked yet", key)
	}
	return nil
}

// wrapper makes the controller a framework implementation.
type wrapper struct {
	*controller
}

// auditor has the framework's methods but no controller is built of it.
type auditor struct {
	queue workqueue.TypedRateLimitingInterface[string]
}

// Queue is the auditor's queue.
func (a *auditor) Queue() workqueue.TypedRateLimitingInterface[string] { return a.queue }

// Process only counts keys.
func (a *auditor) Process(_ context.Context, _ string) error {
	return nil
}

// New builds the ConfigMap controller.
func New(configMaps corelisters.ConfigMapLister) *framework.Controller {
	c := &controller{configMaps: configMaps,
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	w := wrapper{c}
	return framework.NewBuilder("configmaps").For(&w).Complete()
}

// NewAuditor makes an auditor, which runs no controller.
func NewAuditor() *auditor { return &auditor{} }
