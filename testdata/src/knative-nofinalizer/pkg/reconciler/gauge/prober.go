package gauge

import (
	"time"

	"k8s.io/client-go/util/workqueue"

	gaugesv1 "example.com/fixtures/knative-nofinalizer/pkg/apis/gauges/v1"
)

// probeDelay is how long a probe waits before it runs.
const probeDelay = 2 * time.Second

// probe is one reading of a Gauge's sensor.
type probe struct {
	name, namespace string
}

// prober reads sensors from a queue of its own, with a worker of its own.
type prober struct {
	queue workqueue.TypedRateLimitingInterface[*probe]
}

func newProber() *prober {
	p := &prober{}
	p.queue = workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[*probe]())
	go p.run()
	return p
}

// probe queues a reading of g's sensor.
func (p *prober) probe(g *gaugesv1.Gauge) {
	p.queue.AddAfter(&probe{name: g.Name, namespace: g.Namespace}, probeDelay)
}

// run reads sensors until the queue shuts down.
func (p *prober) run() {
	for {
		item, shutdown := p.queue.Get()
		if shutdown {
			return
		}
		p.queue.Forget(item)
		p.queue.Done(item)
	}
}
