package main

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "cronStamper/drift"

const stampKey = "schedule"

// cronStamper writes each CronJob's schedule into a ConfigMap of its name.
type cronStamper struct {
	client   kubernetes.Interface
	cronJobs batchlisters.CronJobLister
	queue    workqueue.TypedRateLimitingInterface[string]
}

func newCronStamper(client kubernetes.Interface, cronJobs batchinformers.CronJobInformer) *cronStamper {
	s := &cronStamper{
		client:   client,
		cronJobs: cronJobs.Lister(),
		queue:    workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = cronJobs.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				s.queue.Add(key)
			}
		},
	})
	return s
}

func (s *cronStamper) run(ctx context.Context) {
	defer s.queue.ShutDown()
	go wait.UntilWithContext(ctx, s.work, time.Second)
	<-ctx.Done()
}

func (s *cronStamper) work(ctx context.Context) {
	for {
		key, quit := s.queue.Get()
		if quit {
			return
		}
		if err := s.sync(ctx, key); err != nil {
			utilruntime.HandleError(err)
			s.queue.AddRateLimited(key) // want "cronStamper/requeue-error"
		} else {
			s.queue.Forget(key)
		}
		s.queue.Done(key)
	}
}

func (s *cronStamper) sync(ctx context.Context, key string) error { // want "cronStamper/reconcile-entry"
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cj, err := s.cronJobs.CronJobs(ns).Get(name) // want "cronStamper/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return s.stamp(ctx, cj)
}

// stamp writes the schedule of a CronJob that is not suspended; a
// schedule of its own default is not written.
func (s *cronStamper) stamp(ctx context.Context, cj *batchv1.CronJob) error {
	schedule := cj.Spec.Schedule
	if schedule == "@daily" || (cj.Spec.Suspend != nil && *cj.Spec.Suspend) {
		return nil
	}
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: cj.Name, Namespace: cj.Namespace},
		Data:       map[string]string{stampKey: schedule},
	}
	_, err := s.client.CoreV1().ConfigMaps(cj.Namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "cronStamper/write-always"
	if errors.IsNotFound(err) {
		_, err = s.client.CoreV1().ConfigMaps(cj.Namespace).Create(ctx, cm, metav1.CreateOptions{})
	}
	return err
}
