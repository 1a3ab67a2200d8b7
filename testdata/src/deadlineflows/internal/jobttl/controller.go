// Package jobttl holds a client-go controller that deletes a finished Job
// when the time its spec gives after its completion has passed, and looks
// at it again when that time is due: the deadline is the completion time
// plus the TTL, the wait the time from now to it.
package jobttl

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/utils/clock"
)

// want-none "Controller/finalizer-const" "Controller/finalizer-add" "Controller/finalizer-cleanup" "Controller/finalizer-remove" "Controller/condition-types" "Controller/drift"

// Controller deletes finished Jobs whose TTL has passed.
type Controller struct {
	client kubernetes.Interface
	lister batchlisters.JobLister
	queue  workqueue.TypedRateLimitingInterface[string]
	// decoy: the clock is asked for the time, not computed from.
	clock clock.PassiveClock
}

// New returns a controller fed by the Job informer.
func New(client kubernetes.Interface, informer batchinformers.JobInformer, clk clock.PassiveClock) *Controller {
	c := &Controller{
		client: client,
		lister: informer.Lister(),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		clock:  clk,
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: c.enqueue,
		UpdateFunc: func(_, obj interface{}) {
			c.enqueue(obj)
		},
	})
	return c
}

func (c *Controller) enqueue(obj interface{}) {
	if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
		c.queue.Add(key)
	}
}

// Run runs one worker until ctx is done.
func (c *Controller) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func (c *Controller) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *Controller) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "Controller/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync deletes a finished Job past its TTL, or looks at it again when the
// TTL is due.
func (c *Controller) sync(ctx context.Context, key string) error { // want "Controller/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return err
	}
	job, err := c.lister.Jobs(namespace).Get(name) // want "Controller/reread"
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if !finished(job) {
		return nil
	}
	ttl := time.Duration(*job.Spec.TTLSecondsAfterFinished) * time.Second // want "Controller/trace:constant"
	expireAt := job.Status.CompletionTime.Add(ttl)                        // want "Controller/trace:computed"
	if left := expireAt.Sub(c.clock.Now()); left > 0 {
		c.queue.AddAfter(key, left) // want "Controller/requeue-success" "Controller/trace:return"
		return nil
	}
	return c.client.BatchV1().Jobs(namespace).Delete(ctx, name, metav1.DeleteOptions{})
}

// finished reports whether a Job has completed and has a TTL.
func finished(job *batchv1.Job) bool {
	return job.Spec.TTLSecondsAfterFinished != nil && job.Status.CompletionTime != nil
}
