// Command typedwrite marks Gizmos ready through a typed client built on
// client-go's generic one, as generated clientsets are: the client's
// UpdateStatus is a dependency's method, whose body is not read.
package main

import (
	"context"
	"flag"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/gentype"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	v1 "example.com/fixtures/typedwrite/api/v1"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-success" "interval-trace" "drift"

// GizmoInterface reads and writes the Gizmos of one namespace.
type GizmoInterface interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (*v1.Gizmo, error)
	UpdateStatus(ctx context.Context, g *v1.Gizmo, opts metav1.UpdateOptions) (*v1.Gizmo, error)
}

// gizmos is the typed client, client-go's generic client for the type.
type gizmos struct {
	*gentype.ClientWithList[*v1.Gizmo, *v1.GizmoList]
}

// newGizmos returns the typed client of namespace.
func newGizmos(c rest.Interface, namespace string) GizmoInterface {
	return &gizmos{gentype.NewClientWithList[*v1.Gizmo, *v1.GizmoList](
		"gizmos", c, scheme.ParameterCodec, namespace,
		func() *v1.Gizmo { return &v1.Gizmo{} },
		func() *v1.GizmoList { return &v1.GizmoList{} })}
}

// Controller marks each Gizmo queued Ready.
type Controller struct {
	rest  rest.Interface
	queue workqueue.TypedRateLimitingInterface[string]
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *Controller) next(ctx context.Context) bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		utilruntime.HandleError(err)
		c.queue.AddRateLimited(key) // want "requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *Controller) sync(ctx context.Context, key string) error { // want "reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	client := newGizmos(c.rest, namespace)
	g, err := client.Get(ctx, name, metav1.GetOptions{}) // want "reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return markReady(ctx, g, client)
}

// markReady sets the Ready condition on a copy of g and writes its status
// through the typed client it is handed.
func markReady(ctx context.Context, g *v1.Gizmo, client GizmoInterface) error {
	c := g.DeepCopy()
	meta.SetStatusCondition(&c.Status.Conditions, metav1.Condition{Type: v1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Seen", Message: "seen"}) // want "condition-set:Ready"
	_, err := client.UpdateStatus(ctx, c, metav1.UpdateOptions{})                                                                                           // want "write-always"
	return err
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	rc, err := rest.RESTClientFor(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	c := &Controller{rest: rc, queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}
	ctx := context.Background()
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}
