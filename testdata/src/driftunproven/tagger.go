package main

import (
	"context"
	"encoding/json"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

const teamLabel = "example.com/team"

// nodeTagger labels the Node of each Job with the Job's team.
type nodeTagger struct {
	client kubernetes.Interface
	jobs   batchlisters.JobLister
	nodes  corelisters.NodeLister
	queue  workqueue.TypedRateLimitingInterface[string]
	// changed lists the labels of want that differ on the node; set by
	// whoever builds the tagger.
	changed func(node *corev1.Node, want map[string]string) map[string]string
}

func newNodeTagger(client kubernetes.Interface, jobs batchinformers.JobInformer, nodes coreinformers.NodeInformer) *nodeTagger {
	t := &nodeTagger{
		client:  client,
		jobs:    jobs.Lister(),
		nodes:   nodes.Lister(),
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		changed: changedLabels,
	}
	_, _ = jobs.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				t.queue.Add(key)
			}
		},
	})
	return t
}

func (t *nodeTagger) run(ctx context.Context) {
	defer t.queue.ShutDown()
	go wait.UntilWithContext(ctx, t.work, time.Second)
	<-ctx.Done()
}

func (t *nodeTagger) work(ctx context.Context) {
	for {
		key, quit := t.queue.Get()
		if quit {
			return
		}
		if err := t.sync(ctx, key); err != nil {
			utilruntime.HandleError(err)
			t.queue.AddRateLimited(key) // want "nodeTagger/requeue-error"
		} else {
			t.queue.Forget(key)
		}
		t.queue.Done(key)
	}
}

func (t *nodeTagger) sync(ctx context.Context, key string) error { // want "nodeTagger/reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	job, err := t.jobs.Jobs(ns).Get(name) // want "nodeTagger/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	nodeName := job.Spec.Template.Spec.NodeName
	if nodeName == "" {
		return nil
	}
	node, err := t.nodes.Get(nodeName)
	if err != nil {
		return err
	}
	return t.label(ctx, node, t.changed(node, map[string]string{teamLabel: job.Labels[teamLabel]}))
}

// label patches the node's labels with the ones given, when there are any.
func (t *nodeTagger) label(ctx context.Context, node *corev1.Node, labels map[string]string) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": labels}})
	if err != nil {
		return err
	}
	if len(labels) > 0 {
		_, err = t.client.CoreV1().Nodes().Patch(ctx, node.Name, types.MergePatchType, patch, metav1.PatchOptions{}) // want "nodeTagger/drift:unsettled"
	}
	return err
}

// changedLabels is the part of want that the node's labels do not hold.
func changedLabels(node *corev1.Node, want map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range want {
		if node.Labels[k] != v {
			out[k] = v
		}
	}
	return out
}
