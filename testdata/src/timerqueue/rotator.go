package main

import (
	"context"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// want-none "SecretRotator/finalizer-const" "SecretRotator/finalizer-add" "SecretRotator/finalizer-cleanup" "SecretRotator/finalizer-remove" "SecretRotator/condition-types"
// want-none "SecretRotator/drift"

// rotateAfter is the annotation holding when a Secret is rotated next.
const rotateAfter = "timerqueue.example.com/rotate-after"

// SecretRotator stamps each Secret with its next rotation time and looks at
// it again then, through a queue that waits on a clock's timer.
type SecretRotator struct {
	client kubernetes.Interface
	lister corelisters.SecretLister
	queue  workqueue.TypedRateLimitingInterface[cache.ObjectName]
	later  laterQueue[cache.ObjectName]
	clock  clock.Clock
}

// NewSecretRotator returns a rotator fed by the Secret informer.
func NewSecretRotator(client kubernetes.Interface, informer coreinformers.SecretInformer, clk clock.Clock) *SecretRotator {
	queue := workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]())
	c := &SecretRotator{
		client: client,
		lister: informer.Lister(),
		queue:  queue,
		later:  &clockQueue[cache.ObjectName]{clock: clk, process: queue.Add},
		clock:  clk,
	}
	informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				c.queue.Add(ref)
			}
		},
	})
	return c
}

// Run runs one worker until ctx is done.
func (c *SecretRotator) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.UntilWithContext(ctx, c.runWorker, time.Second)
	<-ctx.Done()
}

func (c *SecretRotator) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *SecretRotator) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		klog.ErrorS(err, "rotating", "secret", key)
		c.queue.AddRateLimited(key) // want "SecretRotator/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync stamps one Secret's next rotation and looks at it again then.
func (c *SecretRotator) sync(ctx context.Context, key cache.ObjectName) error { // want "SecretRotator/reconcile-entry"
	secret, err := c.lister.Secrets(key.Namespace).Get(key.Name) // want "SecretRotator/reread"
	if err != nil {
		return err
	}
	now := c.clock.Now()
	next, err := time.Parse(time.RFC3339, secret.Annotations[rotateAfter])
	if err != nil || !next.After(now) {
		next = now.Add(24 * time.Hour)
		secret = secret.DeepCopy()
		if secret.Annotations == nil {
			secret.Annotations = map[string]string{}
		}
		secret.Annotations[rotateAfter] = next.Format(time.RFC3339)
		if _, err := c.client.CoreV1().Secrets(secret.Namespace).Update(ctx, secret, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	c.later.Later(key, next.Sub(now)) // want "SecretRotator/requeue-success" "SecretRotator/trace:return"
	return nil
}
