// Command gates runs a readiness-gate controller shaped like a recommender:
// on each tick it lists every Pod, hands each down a channel to workers,
// and a worker keeps the Pod's gate conditions in an in-memory model, then
// patches the status it builds from the model when it differs (drift: a
// Pod's status is no report) by name. The item is the object: nothing
// fetches it again; a failed patch is only logged (the next tick retries).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "requeue-error" "requeue-success" "interval-trace" "reread"

// The gate conditions the controller keeps on its Pods: a constant, a
// variable nothing writes after its initialiser (a constant in all but
// name), and one a flag may change (its value is not settled).
const gateScheduled corev1.PodConditionType = "GateScheduled" // want "condition-type:GateScheduled"

var (
	gateWarm corev1.PodConditionType = "GateWarm" // want "condition-type:GateWarm"
	gateZone corev1.PodConditionType = "GateZone"
)

// gateModel is the controller's in-memory state of one Pod's gates.
type gateModel struct {
	mu         sync.Mutex
	conditions map[corev1.PodConditionType]corev1.PodCondition
}

// set records one gate condition in the model.
func (m *gateModel) set(t corev1.PodConditionType, ok bool) {
	status := corev1.ConditionFalse
	if ok {
		status = corev1.ConditionTrue
	}
	m.conditions[t] = corev1.PodCondition{Type: t, Status: status}
}

// asStatus is the status the model says the Pod has.
func (m *gateModel) asStatus() *corev1.PodStatus {
	var list []corev1.PodCondition
	for _, c := range m.conditions {
		list = append(list, c)
	}
	return &corev1.PodStatus{Conditions: list}
}

// GateController keeps the gates of every Pod.
type GateController struct {
	client kubernetes.Interface
	pods   listers.PodLister
	models map[types.UID]*gateModel
}

// runOnce lists every Pod and hands each to the workers.
func (c *GateController) runOnce(ctx context.Context) {
	all, err := c.pods.List(labels.Everything())
	if err != nil {
		return
	}
	items := make(chan *corev1.Pod, len(all))
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for pod := range items {
				c.process(ctx, c.modelOf(pod), pod)
			}
		})
	}
	for _, pod := range all {
		items <- pod
	}
	close(items)
	wg.Wait()
}

// modelOf is the model of one Pod, made on first sight.
func (c *GateController) modelOf(pod *corev1.Pod) *gateModel {
	m, ok := c.models[pod.UID]
	if !ok {
		m = &gateModel{conditions: map[corev1.PodConditionType]corev1.PodCondition{}}
		c.models[pod.UID] = m
	}
	return m
}

// process brings one Pod's gates up to date.
func (c *GateController) process(ctx context.Context, m *gateModel, pod *corev1.Pod) { // want "reconcile-entry"
	m.mu.Lock()
	defer m.mu.Unlock()
	m.set(gateScheduled, pod.Spec.NodeName != "")          // want "condition-set:GateScheduled"
	m.set(gateWarm, pod.Status.Phase == corev1.PodRunning) // want "condition-set:GateWarm"
	m.set(gateZone, pod.Labels[corev1.LabelTopologyZone] != "")
	status := m.asStatus()
	if equality.Semantic.DeepEqual(status, &corev1.PodStatus{Conditions: []corev1.PodCondition{}}) {
		return // no gate kept yet (an empty list sets no condition)
	}
	if equality.Semantic.DeepEqual(pod.Status.Conditions, status.Conditions) { // want "drift:compare"
		return
	}
	data, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		return
	}
	if _, err := c.client.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, data, metav1.PatchOptions{}, "status"); err != nil { // want "drift:apply"
		klog.ErrorS(err, "Cannot patch the gates", "pod", klog.KObj(pod))
	}
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	zone := flag.String("zone-gate", string(gateZone), "The condition type of the zone gate.")
	flag.Parse()
	gateZone = corev1.PodConditionType(*zone)
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
	factory := kubeinformers.NewSharedInformerFactory(client, time.Hour)
	c := &GateController{client: client, pods: factory.Core().V1().Pods().Lister(), models: map[types.UID]*gateModel{}}
	factory.Start(ctx.Done())
	factory.WaitForCacheSync(ctx.Done())
	ticker := time.NewTicker(time.Minute)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			c.runOnce(ctx)
		}
	}
}
