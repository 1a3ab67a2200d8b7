package main

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"

	"example.com/fixtures/readdworker/check"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "interval-trace" "drift"

// Prober probes Nodes through a checker.
type Prober struct {
	nodes    corelisters.NodeLister
	synced   cache.InformerSynced
	queue    workqueue.Interface
	checker  *check.Checker
	interval time.Duration
}

// NewProber returns a prober fed by a Node informer.
func NewProber(nodes coreinformers.NodeInformer, checker *check.Checker, interval time.Duration) *Prober {
	p := &Prober{
		nodes:    nodes.Lister(),
		synced:   nodes.Informer().HasSynced,
		queue:    workqueue.NewNamed("nodes"),
		checker:  checker,
		interval: interval,
	}
	nodes.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: p.nodeAdded,
	})
	return p
}

// nodeAdded queues a new Node once: the workers keep it coming back.
func (p *Prober) nodeAdded(obj interface{}) {
	key, err := cache.MetaNamespaceKeyFunc(obj)
	if err != nil {
		return
	}
	p.queue.Add(key) // decoy: requeue-success (an enqueue in an event handler)
}

// Run starts the workers, each probing one Node a tick, until ctx is done.
func (p *Prober) Run(ctx context.Context, workers int) {
	defer p.queue.ShutDown()
	if !cache.WaitForCacheSync(ctx.Done(), p.synced) {
		return
	}
	for range workers {
		go wait.UntilWithContext(ctx, p.probeOne, p.interval)
	}
	<-ctx.Done()
}

// probeOne takes one Node off the queue, probes it and puts it back.
func (p *Prober) probeOne(ctx context.Context) { // want "reconcile-entry"
	item, quit := p.queue.Get()
	if quit {
		return
	}
	defer p.queue.Done(item)
	name := item.(string)
	node, err := p.nodes.Get(name) // want "reread"
	if err != nil {
		if errors.IsNotFound(err) {
			return // gone: not put back
		}
		klog.ErrorS(err, "Reading the Node", "node", name)
		p.queue.Add(name) // a failed read: back at once
		return
	}
	if err := p.checker.Probe(ctx, node); err != nil {
		klog.ErrorS(err, "Probing the Node", "node", name)
	}
	putBack := func() {
		p.queue.Add(item) // want "requeue-error" "requeue-success"
	}
	putBack()
}
