package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "PodNoter/finalizer-const" "PodNoter/finalizer-add" "PodNoter/finalizer-cleanup" "PodNoter/finalizer-remove" "PodNoter/condition-types" "PodNoter/drift"
// want-none "ClaimPacer/finalizer-const" "ClaimPacer/finalizer-add" "ClaimPacer/finalizer-cleanup" "ClaimPacer/finalizer-remove" "ClaimPacer/condition-types" "ClaimPacer/drift"

// noteWait is how long a Pod's note is given to settle.
const noteWait = 10 * time.Second // want "PodNoter/trace:constant"

// pace is how often a claim is looked at again.
const pace = 30 * time.Second // want "ClaimPacer/trace:constant"

// PodNoter writes a ConfigMap noting each Pod. Its sync hands back whether
// to look again soon: only right after it made the note, whose settling it
// waits for. A pass that finds the note made asks for nothing, so the
// worker's delayed add, under the test of what the sync handed back, is a
// wait on the note, not the steady state's interval.
type PodNoter struct {
	pods  corelisters.PodLister
	cs    kubernetes.Interface
	queue workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *PodNoter) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *PodNoter) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	again, err := c.sync(ctx, key)
	if err != nil {
		c.queue.AddRateLimited(key) // want "PodNoter/requeue-error"
	} else if !again {
		c.queue.Forget(key)
	} else {
		c.queue.Forget(key)
		c.queue.AddAfter(key, noteWait) // want "PodNoter/requeue-success" "PodNoter/trace:return"
	}
	return true
}

func (c *PodNoter) sync(ctx context.Context, key cache.ObjectName) (bool, error) { // want "PodNoter/reconcile-entry"
	pod, err := c.pods.Pods(key.Namespace).Get(key.Name) // want "PodNoter/reread"
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	note := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: pod.Name + "-note", Namespace: pod.Namespace}}
	_, err = c.cs.CoreV1().ConfigMaps(pod.Namespace).Create(ctx, note, metav1.CreateOptions{}) // want "PodNoter/write-always"
	if err == nil {
		return true, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return false, err
	}
	return false, nil
}

// ClaimPacer looks at each claim again on every pass: its sync's steady end
// hands back true, so the worker's delayed add is the interval.
type ClaimPacer struct {
	claims corelisters.PersistentVolumeClaimLister
	queue  workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

func (c *ClaimPacer) runWorker(ctx context.Context) {
	for c.next(ctx) {
	}
}

func (c *ClaimPacer) next(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	again, err := c.sync(key)
	if err != nil {
		c.queue.AddRateLimited(key) // want "ClaimPacer/requeue-error"
	} else if !again {
		c.queue.Forget(key)
	} else {
		c.queue.Forget(key)
		c.queue.AddAfter(key, pace) // want "ClaimPacer/requeue-success" "ClaimPacer/trace:return"
	}
	return true
}

func (c *ClaimPacer) sync(key cache.ObjectName) (bool, error) { // want "ClaimPacer/reconcile-entry"
	claim, err := c.claims.PersistentVolumeClaims(key.Namespace).Get(key.Name) // want "ClaimPacer/reread"
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return claim.Status.Phase != corev1.ClaimLost, nil
}
