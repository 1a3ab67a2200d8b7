// Command queuewait runs client-go controllers that re-add their key after
// a delay: one only while a ConfigMap it needs is missing (a wait on
// something else, the steady state event-driven), one on every pass (the
// interval), one whose worker retries a failed sync shortly (a retry after
// a failure), and two that choose their pace from the object.
package main

import (
	"context"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// retryWait is how long a Secret waits for its ConfigMap.
const retryWait = 5 * time.Second // want "SecretWaiter/trace:constant"

// tick is how often a ServiceAccount is looked at again.
const tick = time.Minute // want "AccountTicker/trace:constant"

// SecretWaiter checks that each Secret's ConfigMap exists.
type SecretWaiter struct {
	secrets    corelisters.SecretLister
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *SecretWaiter) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *SecretWaiter) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		if apierrors.IsConflict(err) {
			// A write that lost a race is retried as any other failure is.
			c.queue.AddRateLimited(key) // decoy: SecretWaiter/requeue-error (the special case's retry, before every other failure's)
			return true
		}
		c.queue.AddRateLimited(key) // want "SecretWaiter/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync waits while the Secret's ConfigMap is missing.
func (c *SecretWaiter) sync(ctx context.Context, key cache.ObjectName) error { // want "SecretWaiter/reconcile-entry"
	secret, err := c.secrets.Secrets(key.Namespace).Get(key.Name) // want "SecretWaiter/reread"
	if err != nil {
		return err
	}
	_, err = c.configMaps.ConfigMaps(key.Namespace).Get(secret.Name)
	present := err == nil
	if !present {
		c.queue.AddAfter(key, retryWait) // want "SecretWaiter/requeue-success" "SecretWaiter/trace:return"
		return nil
	}
	return nil
}

// AccountTicker looks at each ServiceAccount every minute.
type AccountTicker struct {
	accounts corelisters.ServiceAccountLister
	queue    workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *AccountTicker) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *AccountTicker) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		c.queue.AddRateLimited(key) // want "AccountTicker/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync looks at the ServiceAccount again in a minute, unless it has no
// secrets yet.
func (c *AccountTicker) sync(ctx context.Context, key cache.ObjectName) error { // want "AccountTicker/reconcile-entry"
	sa, err := c.accounts.ServiceAccounts(key.Namespace).Get(key.Name) // want "AccountTicker/reread"
	if err != nil {
		return err
	}
	if len(sa.Secrets) == 0 {
		return nil
	}
	c.queue.AddAfter(key, tick) // want "AccountTicker/requeue-success" "AccountTicker/trace:return"
	return nil
}

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactory(client, 0)
	ctx := context.Background()
	w := &SecretWaiter{
		secrets:    factory.Core().V1().Secrets().Lister(),
		configMaps: factory.Core().V1().ConfigMaps().Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().Secrets().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				w.queue.Add(ref)
			}
		},
	})
	t := &AccountTicker{
		accounts: factory.Core().V1().ServiceAccounts().Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().ServiceAccounts().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				t.queue.Add(ref)
			}
		},
	})
	r := &EndpointsRetrier{
		endpoints: factory.Core().V1().Endpoints().Lister(),
		queue:     workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
		written:   map[cache.ObjectName]string{},
		prober:    &endpointsProber{queue: workqueue.NewTypedDelayingQueue[cache.ObjectName]()},
	}
	go r.prober.run()
	factory.Core().V1().Endpoints().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				r.queue.Add(ref)
			}
		},
	})
	p := &ConfigMapPacer{
		configMaps: factory.Core().V1().ConfigMaps().Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				p.queue.Add(ref)
			}
		},
	})
	s := &ServicePacer{
		services: factory.Core().V1().Services().Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().Services().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				s.queue.Add(ref)
			}
		},
	})
	pl := &PodPlacer{
		pods:  factory.Core().V1().Pods().Lister(),
		nodes: factory.Core().V1().Nodes().Lister(),
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				pl.queue.Add(ref)
			}
		},
	})
	nr := &NodeRechecker{
		nodes: factory.Core().V1().Nodes().Lister(),
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().Nodes().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				nr.queue.Add(ref)
			}
		},
	})
	pn := &PodNoter{
		pods:  factory.Core().V1().Pods().Lister(),
		cs:    client,
		queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				pn.queue.Add(ref)
			}
		},
	})
	cp := &ClaimPacer{
		claims: factory.Core().V1().PersistentVolumeClaims().Lister(),
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName]()),
	}
	factory.Core().V1().PersistentVolumeClaims().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if ref, err := cache.ObjectToName(obj); err == nil {
				cp.queue.Add(ref)
			}
		},
	})
	factory.Start(ctx.Done())
	go wait.UntilWithContext(ctx, w.runWorker, time.Second)
	go wait.UntilWithContext(ctx, r.runWorker, time.Second)
	go wait.UntilWithContext(ctx, t.runWorker, time.Second)
	go wait.UntilWithContext(ctx, p.runWorker, time.Second)
	go wait.UntilWithContext(ctx, s.runWorker, time.Second)
	go wait.UntilWithContext(ctx, pl.runWorker, time.Second)
	go wait.UntilWithContext(ctx, nr.runWorker, time.Second)
	go wait.UntilWithContext(ctx, pn.runWorker, time.Second)
	go wait.UntilWithContext(ctx, cp.runWorker, time.Second)
	<-ctx.Done()
}
