package main

import (
	"context"
	"errors"
	"time"

	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "EndpointsRetrier/requeue-success" "EndpointsRetrier/interval-trace"

// errStale says the informer's copy is older than a write this controller
// made: the sync is tried again shortly, not rate-limited.
var errStale = errors.New("stale cache")

// staleWait is how long a key waits after a stale read.
const staleWait = 100 * time.Millisecond

// EndpointsRetrier checks Endpoints. Its worker re-adds a key after a
// short delay when the sync failed on a stale cache, and rate-limited on
// any other failure; a success is forgotten: the steady state is
// event-driven, and the delayed re-add is a retry after a failure. The
// prober's delayed add of the same key is on a queue of the prober's own.
type EndpointsRetrier struct {
	endpoints corelisters.EndpointsLister
	queue     workqueue.TypedRateLimitingInterface[cache.ObjectName]
	written   map[cache.ObjectName]string
	prober    *endpointsProber
}

// endpointsProber checks the addresses of Endpoints from a queue of its
// own, drained by a worker of its own.
type endpointsProber struct {
	queue workqueue.TypedDelayingInterface[cache.ObjectName]
}

// probeWait is how long a probe waits before it runs.
const probeWait = 5 * time.Second

func (p *endpointsProber) run() {
	for {
		key, shutdown := p.queue.Get()
		if shutdown {
			return
		}
		p.queue.Done(key)
	}
}

func (c *EndpointsRetrier) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *EndpointsRetrier) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		if errors.Is(err, errStale) {
			c.queue.AddAfter(key, staleWait)
			return true
		}
		c.queue.AddRateLimited(key) // want "EndpointsRetrier/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync fails on a copy older than the last version this controller wrote.
func (c *EndpointsRetrier) sync(ctx context.Context, key cache.ObjectName) error { // want "EndpointsRetrier/reconcile-entry"
	ep, err := c.endpoints.Endpoints(key.Namespace).Get(key.Name) // want "EndpointsRetrier/reread"
	if err != nil {
		return err
	}
	if v, ok := c.written[key]; ok && v > ep.ResourceVersion {
		return errStale
	}
	c.prober.queue.AddAfter(key, probeWait)
	return nil
}
