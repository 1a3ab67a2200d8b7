// Command stamper runs a client-go controller whose queue holds events
// that handle themselves: each item is a value with a Handle method, one
// type for an added ConfigMap and one for an updated one. The worker
// first records how long the item waited (a metric handed a duration the
// item gives, no sync), then calls the item's Handle: that call runs the
// sync, one controller per type that may be queued.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// want-none "requeue-success" "interval-trace" "reread" "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "drift"

// stampAnnotation records when a ConfigMap was last seen.
const stampAnnotation = "example.com/seen"

// handler is a queued event: it handles itself.
type handler interface {
	Handle() error
}

// timed is a queued event that knows when it was queued.
type timed interface {
	queuedAt() time.Time
}

// added is a ConfigMap that was added.
type added struct {
	client kubernetes.Interface
	cm     *corev1.ConfigMap
	at     time.Time
}

func (a added) queuedAt() time.Time { return a.at }

// Handle stamps the added ConfigMap.
func (a added) Handle() error { // want "added/reconcile-entry"
	return stamp(a.client, a.cm)
}

// updated is a ConfigMap that changed.
type updated struct {
	client kubernetes.Interface
	cur    *corev1.ConfigMap
	at     time.Time
}

func (u updated) queuedAt() time.Time { return u.at }

// Handle stamps the changed ConfigMap.
func (u updated) Handle() error { // want "updated/reconcile-entry"
	return stamp(u.client, u.cur)
}

// stamp writes the time it handled the event onto a copy of the
// ConfigMap.
func stamp(client kubernetes.Interface, cm *corev1.ConfigMap) error {
	cm = cm.DeepCopy()
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[stampAnnotation] = time.Now().Format(time.RFC3339)
	_, err := client.CoreV1().ConfigMaps(cm.Namespace).Update(context.TODO(), cm, metav1.UpdateOptions{}) // want "write-always" "hot-loop"
	return err
}

// Stamper runs the queue of events.
type Stamper struct {
	queue workqueue.TypedRateLimitingInterface[any]
	waits []time.Duration
}

// recordWait keeps how long an item waited (a metric).
func (s *Stamper) recordWait(d time.Duration) { s.waits = append(s.waits, d) }

// processNext handles one event.
func (s *Stamper) processNext() bool {
	item, quit := s.queue.Get()
	if quit {
		return false
	}
	defer s.queue.Done(item)
	if t, ok := item.(timed); ok {
		s.recordWait(time.Since(t.queuedAt()))
	}
	h, ok := item.(handler)
	if !ok {
		s.queue.Forget(item)
		return true
	}
	if err := h.Handle(); err != nil {
		s.queue.AddRateLimited(item) // want "requeue-error"
		return true
	}
	s.queue.Forget(item)
	return true
}

// run works until the queue shuts down.
func (s *Stamper) run() {
	for s.processNext() {
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
	s := &Stamper{queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]())}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if cm, ok := obj.(*corev1.ConfigMap); ok {
				s.queue.Add(added{client: client, cm: cm, at: time.Now()})
			}
		},
		UpdateFunc: func(_, newObj interface{}) {
			if n, ok := newObj.(*corev1.ConfigMap); ok {
				s.queue.Add(updated{client: client, cur: n, at: time.Now()})
			}
		},
	})
	factory.Start(ctx.Done())
	go s.run()
	<-ctx.Done()
	s.queue.ShutDown()
}
