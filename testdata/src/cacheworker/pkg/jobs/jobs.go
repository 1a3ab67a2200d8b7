// Package jobs runs Jobs from a cache of its own: the informer's handlers
// keep a record per Job (the Job and its pods) and queue requests; the
// worker reads the record by the request's key itself and runs a state
// machine over it, whose actions are package-level function variables the
// controller sets to its own methods.
package jobs

import (
	"context"
	"fmt"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "JobController/finalizer-const" "JobController/finalizer-add" "JobController/finalizer-cleanup" "JobController/finalizer-remove" "JobController/condition-types" "JobController/requeue-success" "JobController/interval-trace" "JobController/drift"

const maxRequeues = 15

// Request is what the queue holds: which Job, and what happened to it.
type Request struct {
	Namespace string
	JobName   string
	Event     string
}

// keyOf is the cache's key of a request's Job.
func keyOf(req *Request) string {
	return req.Namespace + "/" + req.JobName
}

// JobInfo is the cache's record of one Job.
type JobInfo struct {
	Name string
	Job  *batchv1.Job
	Pods map[string]*corev1.Pod
}

// Clone copies the record.
func (ji *JobInfo) Clone() *JobInfo {
	out := &JobInfo{Name: ji.Name, Job: ji.Job.DeepCopy(), Pods: map[string]*corev1.Pod{}}
	for name, pod := range ji.Pods {
		out.Pods[name] = pod.DeepCopy()
	}
	return out
}

// jobCache keeps the records by "namespace/name".
type jobCache struct {
	sync.Mutex
	jobs map[string]*JobInfo
}

// Get hands out a copy of the record of a key.
func (jc *jobCache) Get(key string) (*JobInfo, error) {
	jc.Lock()
	defer jc.Unlock()
	info, found := jc.jobs[key]
	if !found {
		return nil, fmt.Errorf("no job %s", key)
	}
	if info.Job == nil {
		return nil, fmt.Errorf("job %s is not ready", key)
	}
	return info.Clone(), nil
}

// put stores a Job in its record.
func (jc *jobCache) put(job *batchv1.Job) {
	jc.Lock()
	defer jc.Unlock()
	key := job.Namespace + "/" + job.Name
	if jc.jobs[key] == nil {
		jc.jobs[key] = &JobInfo{Name: job.Name, Pods: map[string]*corev1.Pod{}}
	}
	jc.jobs[key].Job = job
}

// SyncJob is the action of a running Job, set by the controller.
var SyncJob func(info *JobInfo) error

// State runs an event's action on a Job in one phase.
type State interface {
	Execute(event string) error
}

type runningState struct{ info *JobInfo }

func (s *runningState) Execute(event string) error { return SyncJob(s.info) }

type finishedState struct{ info *JobInfo }

func (s *finishedState) Execute(event string) error { return nil }

// newState is the state of a record's Job.
func newState(info *JobInfo) State {
	if info.Job.Status.CompletionTime != nil {
		return &finishedState{info: info}
	}
	return &runningState{info: info}
}

// JobController makes the pods of Jobs.
type JobController struct {
	client kubernetes.Interface
	cache  *jobCache
	queue  workqueue.TypedRateLimitingInterface[any]
}

// New builds the controller, fed by a Job informer.
func New(client kubernetes.Interface, informer cache.SharedIndexInformer) *JobController {
	c := &JobController{
		client: client,
		cache:  &jobCache{jobs: map[string]*JobInfo{}},
		queue:  workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]()),
	}
	informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			job, ok := obj.(*batchv1.Job)
			if !ok {
				return
			}
			c.cache.put(job)
			c.queue.Add(Request{Namespace: job.Namespace, JobName: job.Name, Event: "add"})
		},
	})
	SyncJob = c.syncJob
	return c
}

// Run works the queue until ctx is done.
func (c *JobController) Run(ctx context.Context) {
	defer c.queue.ShutDown()
	go wait.Until(c.worker, time.Second, ctx.Done())
	<-ctx.Done()
}

func (c *JobController) worker() {
	for c.processNextReq() {
	}
}

// processNextReq reads the record of one request's Job and runs the
// request's event through the Job's state.
func (c *JobController) processNextReq() bool { // want "JobController/reconcile-entry"
	obj, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	req := obj.(Request)
	defer c.queue.Done(req)
	key := keyOf(&req)
	info, err := c.cache.Get(key) // want "JobController/reread"
	if err != nil {
		return true
	}
	st := newState(info)
	if err := st.Execute(req.Event); err != nil {
		c.handleError(req, err)
		return true
	}
	c.queue.Forget(req)
	return true
}

// handleError requeues a failed request until it has failed too often.
func (c *JobController) handleError(req Request, err error) {
	if c.queue.NumRequeues(req) < maxRequeues {
		c.queue.AddRateLimited(req) // want "JobController/requeue-error"
		return
	}
	fmt.Println("dropping", req.Namespace, req.JobName, err)
}

// syncJob creates the Job's missing pods.
func (c *JobController) syncJob(info *JobInfo) error {
	job := info.Job
	for i := int32(0); job.Spec.Parallelism != nil && i < *job.Spec.Parallelism; i++ {
		name := fmt.Sprintf("%s-%d", job.Name, i)
		if _, found := info.Pods[name]; found {
			continue
		}
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: job.Namespace, Name: name}}
		if _, err := c.client.CoreV1().Pods(job.Namespace).Create(context.TODO(), pod, metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	return nil
}
