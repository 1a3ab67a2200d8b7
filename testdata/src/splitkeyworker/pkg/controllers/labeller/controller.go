// Package labeller holds a controller that labels ConfigMaps once, run by
// the agent's shared work loop.
package labeller

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/splitkeyworker/pkg/controllers"
	"example.com/fixtures/splitkeyworker/pkg/ctrlutil"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

const (
	// ControllerName names the controller in logs.
	ControllerName = "labeller"
	maxRetries     = 10
	seenLabel      = "example.com/seen"
)

type controller struct {
	client     kubernetes.Interface
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[any]
}

// NewController wires the labeller to the ConfigMap informer.
func NewController(client kubernetes.Interface, configMaps coreinformers.ConfigMapInformer) controllers.Controller {
	c := controller{
		client:     client,
		configMaps: configMaps.Lister(),
		queue:      workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[any](), workqueue.TypedRateLimitingQueueConfig[any]{Name: ControllerName}),
	}
	if _, err := ctrlutil.AddDefaultEventHandlers(configMaps.Informer(), c.queue); err != nil {
		return nil
	}
	return &c
}

func (c *controller) Run(ctx context.Context, workers int) {
	ctrlutil.Run(ctx, ControllerName, time.Second, c.queue, workers, maxRetries, c.reconcile)
}

func (c *controller) reconcile(ctx context.Context, key, namespace, name string) error { // want "controller/reconcile-entry"
	cm, err := c.configMaps.ConfigMaps(namespace).Get(name) // want "controller/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if cm.Labels[seenLabel] != "" { // want "controller/drift:compare"
		return nil
	}
	cm = cm.DeepCopy()
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels[seenLabel] = key
	_, err = c.client.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "controller/drift:apply"
	return err
}
