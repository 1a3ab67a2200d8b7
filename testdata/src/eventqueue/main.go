// Command labeller runs two controllers whose queues hold events that carry
// the object, not keys: one pops a FIFO of Pods with a process function (a
// closure handing the item to a helper), the other reads a channel of
// ConfigMap events. Neither fetches the object
// again; the items are what they act on. A channel of sweeps, each a label
// selector, is no queue of objects (a selector can hold none).
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-error" "requeue-success" "interval-trace" "reread"

// seenLabel marks an object a controller has seen.
const seenLabel = "example.com/seen"

// PodLabeller labels the Pods its FIFO hands it.
type PodLabeller struct {
	client kubernetes.Interface
	queue  *cache.FIFO
}

// run pops Pods until the FIFO is closed.
func (l *PodLabeller) run() {
	for {
		_, err := l.queue.Pop(func(obj interface{}, _ bool) error { // want "PodLabeller/reconcile-entry"
			return l.label(obj)
		})
		if err != nil {
			return
		}
	}
}

// label labels one Pod, the item itself.
func (l *PodLabeller) label(obj interface{}) error {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil
	}
	if pod.Labels[seenLabel] == "" { // want "PodLabeller/drift:compare"
		pod = pod.DeepCopy()
		pod.Labels = map[string]string{seenLabel: "yes"}
		_, err := l.client.CoreV1().Pods(pod.Namespace).Update(context.TODO(), pod, metav1.UpdateOptions{}) // want "PodLabeller/drift:apply"
		return err
	}
	return nil
}

// event is one change of a ConfigMap, carrying it.
type event struct {
	verb string
	obj  interface{}
}

// ConfigMapLabeller labels the ConfigMaps of the events on its channel.
type ConfigMapLabeller struct {
	client kubernetes.Interface
	events chan event
	// errs carries the failures to report (a decoy: a channel of errors
	// read in a loop is no controller).
	errs chan error
	// sweeps asks for the ConfigMaps a selector picks to be counted (a
	// decoy: its items carry a selector, never an object).
	sweeps chan sweep
}

// sweep is one count asked for: the ConfigMaps of a namespace a selector
// picks.
type sweep struct {
	namespace string
	selector  labels.Selector
}

// countAll counts the sweeps' ConfigMaps until the channel is closed.
func (l *ConfigMapLabeller) countAll(ctx context.Context) {
	for s := range l.sweeps {
		l.count(ctx, s)
	}
}

// count logs how many ConfigMaps one sweep picks.
func (l *ConfigMapLabeller) count(ctx context.Context, s sweep) {
	list, err := l.client.CoreV1().ConfigMaps(s.namespace).List(ctx, metav1.ListOptions{LabelSelector: s.selector.String()})
	if err != nil {
		l.errs <- err
		return
	}
	klog.InfoS("Counted", "namespace", s.namespace, "configmaps", len(list.Items))
}

// run handles events until the channel is closed.
func (l *ConfigMapLabeller) run(ctx context.Context) {
	for ev := range l.events {
		l.handle(ctx, ev)
	}
}

// report logs failures until the channel is closed.
func (l *ConfigMapLabeller) report() {
	for {
		err, ok := <-l.errs
		if !ok {
			return
		}
		l.log(err)
	}
}

// log logs one failure.
func (l *ConfigMapLabeller) log(err error) { utilruntime.HandleError(err) }

// handle labels the ConfigMap of one event.
func (l *ConfigMapLabeller) handle(ctx context.Context, ev event) { // want "ConfigMapLabeller/reconcile-entry"
	cm, ok := ev.obj.(*corev1.ConfigMap)
	if !ok || ev.verb == "delete" {
		return
	}
	if cm.Labels[seenLabel] == "" { // want "ConfigMapLabeller/drift:compare"
		cm = cm.DeepCopy()
		cm.Labels = map[string]string{seenLabel: "yes"}
		if _, err := l.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil { // want "ConfigMapLabeller/drift:apply"
			l.errs <- err
		}
	}
}

// SecretLabeller labels the Secrets of the events on its channel; its
// worker is a function of its own, not a method, so the controller is
// named after the type that holds the channel.
type SecretLabeller struct {
	client kubernetes.Interface
	events chan *corev1.Secret
}

// drainSecrets handles the channel's Secrets until it is closed.
func drainSecrets(ctx context.Context, l *SecretLabeller) {
	for s := range l.events {
		l.handle(ctx, s)
	}
}

// handle labels one Secret.
func (l *SecretLabeller) handle(ctx context.Context, s *corev1.Secret) { // want "SecretLabeller/reconcile-entry"
	if s.Labels[seenLabel] != "" { // want "SecretLabeller/drift:compare"
		return
	}
	s = s.DeepCopy()
	s.Labels = map[string]string{seenLabel: "yes"}
	if _, err := l.client.CoreV1().Secrets(s.Namespace).Update(ctx, s, metav1.UpdateOptions{}); err != nil { // want "SecretLabeller/drift:apply"
		utilruntime.HandleError(err)
	}
}

func main() {
	kubeconfig := flag.String("kubeconfig", "", "Path to a kubeconfig. Only required if out-of-cluster.")
	flag.Parse()
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
	factory := kubeinformers.NewSharedInformerFactory(client, 0)
	pods := &PodLabeller{client: client, queue: cache.NewFIFO(cache.MetaNamespaceKeyFunc)}
	_, _ = factory.Core().V1().Pods().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { _ = pods.queue.Add(obj) },
	})
	cms := &ConfigMapLabeller{client: client, events: make(chan event, 100), errs: make(chan error, 100), sweeps: make(chan sweep, 10)}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj interface{}) { cms.events <- event{verb: "add", obj: obj} },
		UpdateFunc: func(_, obj interface{}) { cms.events <- event{verb: "update", obj: obj} },
	})
	secrets := &SecretLabeller{client: client, events: make(chan *corev1.Secret, 100)}
	_, _ = factory.Core().V1().Secrets().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if s, ok := obj.(*corev1.Secret); ok {
				secrets.events <- s
			}
		},
	})
	factory.Start(ctx.Done())
	go drainSecrets(ctx, secrets)
	go pods.run()
	go cms.report()
	go cms.run(ctx)
	go cms.countAll(ctx)
	cms.sweeps <- sweep{namespace: metav1.NamespaceDefault, selector: labels.SelectorFromSet(labels.Set{seenLabel: "yes"})}
	<-ctx.Done()
	pods.queue.Close()
	close(cms.events)
	close(secrets.events)
}
