package main

import (
	"context"
	"encoding/json"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

const seenAnnotation = "example.com/seen"

// ingressReporter publishes an address in the load-balancer status of each
// Service of type LoadBalancer. It patches Services by name through one
// helper, from two places: marking a Service seen, unconditionally, and
// publishing the status, only when an equality helper finds the two
// statuses its caller hands it different. That test of two values handed
// in is not read as a comparison of desired with live state, so where
// drift is compared is not settled: the status of a Service, a kind the
// tree does not declare, is state the controller applies.
type ingressReporter struct {
	client   kubernetes.Interface
	services corelisters.ServiceLister
	queue    workqueue.TypedRateLimitingInterface[string]
	address  string
}

func newIngressReporter(client kubernetes.Interface, services coreinformers.ServiceInformer, address string) *ingressReporter {
	r := &ingressReporter{
		client:   client,
		services: services.Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		address:  address,
	}
	_, _ = services.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				r.queue.Add(key)
			}
		},
	})
	return r
}

func (r *ingressReporter) run(ctx context.Context) {
	defer r.queue.ShutDown()
	go wait.UntilWithContext(ctx, r.work, time.Second)
	<-ctx.Done()
}

func (r *ingressReporter) work(ctx context.Context) {
	for {
		key, quit := r.queue.Get()
		if quit {
			return
		}
		if err := r.sync(ctx, key); err != nil {
			utilruntime.HandleError(err)
			r.queue.AddRateLimited(key) // want "ingressReporter/requeue-error"
		} else {
			r.queue.Forget(key)
		}
		r.queue.Done(key)
	}
}

func (r *ingressReporter) sync(ctx context.Context, key string) error { // want "ingressReporter/reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	svc, err := r.services.Services(ns).Get(name) // want "ingressReporter/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if svc.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return nil
	}
	if err := r.markSeen(ctx, svc); err != nil {
		return err
	}
	previous := svc.Status.LoadBalancer.DeepCopy()
	next := &corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: r.address}}}
	return r.publish(ctx, svc, previous, next)
}

// markSeen annotates the Service once it has been handled.
func (r *ingressReporter) markSeen(ctx context.Context, svc *corev1.Service) error {
	seen := svc.DeepCopy()
	if seen.Annotations == nil {
		seen.Annotations = map[string]string{}
	}
	seen.Annotations[seenAnnotation] = "true"
	return patchService(ctx, r.client, svc, seen, "")
}

// publish writes the status next when it differs from the previous one.
func (r *ingressReporter) publish(ctx context.Context, svc *corev1.Service, previous, next *corev1.LoadBalancerStatus) error {
	if ingressEqual(previous, next) {
		return nil
	}
	updated := svc.DeepCopy()
	updated.Status.LoadBalancer = *next
	return patchService(ctx, r.client, svc, updated, "status")
}

// ingressEqual says whether two load-balancer statuses list the same
// ingress points.
func ingressEqual(a, b *corev1.LoadBalancerStatus) bool {
	return equality.Semantic.DeepEqual(a.Ingress, b.Ingress)
}

// patchService patches a Service by name with the difference of updated
// from old, in the subresource given.
func patchService(ctx context.Context, client kubernetes.Interface, old, updated *corev1.Service, subresource string) error {
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": updated.Annotations}, "status": updated.Status})
	if err != nil {
		return err
	}
	var subresources []string
	if subresource != "" {
		subresources = append(subresources, subresource)
	}
	_, err = client.CoreV1().Services(old.Namespace).Patch(ctx, old.Name, types.MergePatchType, patch, metav1.PatchOptions{}, subresources...) // want "ingressReporter/drift:unsettled" "ingressReporter/write-always"
	return err
}
