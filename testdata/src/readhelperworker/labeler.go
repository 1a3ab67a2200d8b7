package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

const (
	zoneAnnotation = "example.com/zone"
	zoneLabel      = "example.com/zone"
)

// labeler keeps each Node's zone label equal to its zone annotation.
type labeler struct {
	client kubernetes.Interface
	synced cache.InformerSynced
	queue  workqueue.TypedRateLimitingInterface[string]
}

func newLabeler(client kubernetes.Interface, nodes coreinformers.NodeInformer) *labeler {
	l := &labeler{
		client: client,
		synced: nodes.Informer().HasSynced,
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = nodes.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    l.enqueue,
		UpdateFunc: func(_, obj interface{}) { l.enqueue(obj) },
	})
	return l
}

func (l *labeler) enqueue(obj interface{}) {
	if node, ok := obj.(*corev1.Node); ok {
		l.queue.Add(node.Name)
	}
}

func (l *labeler) run(ctx context.Context, workers int) {
	defer l.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), l.synced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, func(ctx context.Context) {
			for l.processNext(ctx) {
			}
		}, time.Second)
	}
	<-ctx.Done()
}

// fetchNode reads a Node from the API server by name.
func fetchNode(ctx context.Context, client kubernetes.Interface, name string) (*corev1.Node, error) {
	return client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{}) // want "reread"
}

// processNext takes one node name off the queue, reads the Node and labels
// it; a failure comes back rate-limited.
func (l *labeler) processNext(ctx context.Context) bool { // want "reconcile-entry"
	name, quit := l.queue.Get()
	if quit {
		return false
	}
	defer l.queue.Done(name)
	if node, err := fetchNode(ctx, l.client, name); apierrors.IsNotFound(err) {
		klog.FromContext(ctx).Info("node gone", "node", name)
	} else if err != nil {
		l.queue.AddRateLimited(name)
		return true
	} else if err := l.label(ctx, node); err != nil {
		l.queue.AddRateLimited(name) // want "requeue-error"
		return true
	}
	l.queue.Forget(name)
	return true
}

// label sets the Node's zone label from its zone annotation.
func (l *labeler) label(ctx context.Context, node *corev1.Node) error {
	node = node.DeepCopy()
	if node.Labels == nil {
		node.Labels = map[string]string{}
	}
	node.Labels[zoneLabel] = node.Annotations[zoneAnnotation]
	_, err := l.client.CoreV1().Nodes().Update(ctx, node, metav1.UpdateOptions{}) // want "write-always"
	return err
}
