// Package pods is an operator of Pods on the shared Reconciler that keeps
// its Pods in a map of its own: no Get re-reads them.
package pods

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"example.com/fixtures/syncers/pkg/reconciler"
)

// want-none "pods.Operator/reread" "pods.Operator/finalizer-const" "pods.Operator/finalizer-add" "pods.Operator/finalizer-cleanup" "pods.Operator/finalizer-remove" "pods.Operator/condition-types" "pods.Operator/requeue-success" "pods.Operator/interval-trace" "pods.Operator/drift"

// Operator checks that each Pod's node exists.
type Operator struct {
	client kubernetes.Interface
	mu     sync.Mutex
	pods   map[string]*corev1.Pod
	rr     *reconciler.Reconciler
}

// New is an Operator on its own Reconciler.
func New(client kubernetes.Interface) *Operator {
	o := &Operator{client: client, pods: map[string]*corev1.Pod{}}
	o.rr = reconciler.New(o)
	return o
}

// Sync checks the Pod of key.
func (o *Operator) Sync(ctx context.Context, key string) error { // want "pods.Operator/reconcile-entry"
	o.mu.Lock()
	pod := o.pods[key]
	o.mu.Unlock()
	if pod == nil {
		return nil
	}
	return checkNode(ctx, o.client, pod.Spec.NodeName)
}

// checkNode reads a Node by the name the Pod gives: the Node is another
// object, so this Get is not the Pod's re-read although its name came
// from the Pod.
func checkNode(ctx context.Context, client kubernetes.Interface, name string) error {
	_, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
	return err
}

// Run runs the operator's Reconciler.
func (o *Operator) Run(ctx context.Context) { o.rr.Run(ctx) }
