// Package flows runs Flows, kept as ConfigMaps that a dynamic informer
// hands over unstructured. Its worker reads the object by the dequeued key
// through a helper of its own, converts it and hands it to an operation
// that handles its own failures.
package flows

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "FlowController/condition-types" "FlowController/drift"

// flowFinalizer keeps a flow until its Secret is gone.
const flowFinalizer = "flows.example.com/secret" // want "FlowController/finalizer-const"

// resyncPeriod brings every flow back now and then.
const resyncPeriod = 20 * time.Minute // want "FlowController/trace:constant"

// FlowController runs the flows.
type FlowController struct {
	client  kubernetes.Interface
	indexer cache.Indexer
	queue   workqueue.TypedRateLimitingInterface[string]
}

// New builds the controller over an informer of unstructured flows.
func New(client kubernetes.Interface, informer cache.SharedIndexInformer) *FlowController {
	c := &FlowController{
		client:  client,
		indexer: informer.GetIndexer(),
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				c.queue.Add(key)
			}
		},
	})
	return c
}

// Run works the queue until ctx is done.
func (c *FlowController) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func (c *FlowController) runWorker(ctx context.Context) {
	for c.processNextItem(ctx) {
	}
}

// processNextItem handles one key: it reads the flow itself and hands the
// flow, not the key, to the operation.
func (c *FlowController) processNextItem(ctx context.Context) bool { // want "FlowController/reconcile-entry"
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	obj, ok := c.flowByKey(key) // want "FlowController/reread"
	if !ok {
		return true
	}
	un, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return true
	}
	if stale(un) {
		// The informer has not caught up with the last write yet.
		c.queue.AddRateLimited(key)
		return true
	}
	flow, err := fromUnstructured(un)
	if err != nil {
		return true
	}
	c.queue.AddAfter(key, resyncPeriod) // want "FlowController/requeue-success" "FlowController/trace:return"
	op := &operation{c: c, flow: flow}
	op.operate(ctx)
	return true
}

// flowByKey reads a flow from the informer's indexer.
func (c *FlowController) flowByKey(key string) (any, bool) {
	obj, exists, err := c.indexer.GetByKey(key)
	if err != nil || !exists {
		return nil, false
	}
	return obj, true
}

// stale reports whether the informer's copy is older than the last write.
func stale(un *unstructured.Unstructured) bool {
	return un.GetAnnotations()["flows.example.com/written"] > un.GetResourceVersion()
}

// fromUnstructured converts an unstructured flow.
func fromUnstructured(un *unstructured.Unstructured) (*corev1.ConfigMap, error) {
	var cm corev1.ConfigMap
	err := runtime.DefaultUnstructuredConverter.FromUnstructured(un.Object, &cm)
	return &cm, err
}

// operation runs one flow once.
type operation struct {
	c    *FlowController
	flow *corev1.ConfigMap
}

// operate makes the flow's Secret; it requeues the flow itself when that
// fails. A flow being deleted has its Secret deleted first.
// An unchanged flow's pass finds its Secret and writes nothing.
func (op *operation) operate(ctx context.Context) {
	if op.flow.DeletionTimestamp != nil {
		op.cleanup(ctx)
		return
	}
	if !slices.Contains(op.flow.GetFinalizers(), flowFinalizer) {
		finalizers := append(op.flow.GetFinalizers(), flowFinalizer)
		op.flow.SetFinalizers(finalizers) // want "FlowController/finalizer-add"
		if _, err := op.c.client.CoreV1().ConfigMaps(op.flow.Namespace).Update(ctx, op.flow, metav1.UpdateOptions{}); err != nil {
			op.requeue()
			return
		}
	}
	if _, err := op.c.client.CoreV1().Secrets(op.flow.Namespace).Get(ctx, op.flow.Name, metav1.GetOptions{}); err == nil {
		return // made already
	}
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: op.flow.Namespace, Name: op.flow.Name}}
	if _, err := op.c.client.CoreV1().Secrets(s.Namespace).Create(ctx, s, metav1.CreateOptions{}); err != nil {
		fmt.Println("create failed:", err)
		op.requeue()
		return
	}
}

// cleanup deletes the flow's Secret, then lets the flow go.
func (op *operation) cleanup(ctx context.Context) { // want "FlowController/finalizer-cleanup"
	if err := op.c.client.CoreV1().Secrets(op.flow.Namespace).Delete(ctx, op.flow.Name, metav1.DeleteOptions{}); err != nil {
		op.requeue()
		return
	}
	op.flow.Finalizers = slices.DeleteFunc(op.flow.Finalizers, func(f string) bool { return f == flowFinalizer }) // want "FlowController/finalizer-remove"
	if _, err := op.c.client.CoreV1().ConfigMaps(op.flow.Namespace).Update(ctx, op.flow, metav1.UpdateOptions{}); err != nil {
		op.requeue()
	}
}

// requeue brings the flow back, rate limited.
func (op *operation) requeue() {
	key, _ := cache.MetaNamespaceKeyFunc(op.flow)
	op.c.queue.AddRateLimited(key) // want "FlowController/requeue-error"
}
