// Command eventkinds runs two client-go controllers whose kind is told by
// what they handle, not by a registration. ServiceWatcher pops a FIFO of
// change events, each a struct with the Service before and after the
// change: the kind is the type the event carries. ConfigMapClaims re-reads
// ConfigMaps by key and hands a clientset, held as kubernetes.Interface,
// to a helper that labels the namespace's PersistentVolumeClaims. Neither
// sets a condition on its own object: the Pods and the claims they write
// are other objects, and the clientset interface holds no object.
package main

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace" "drift"

// want-none "ServiceWatcher/reread" "ServiceWatcher/requeue-error"

// probeLabel marks a Service that wants a probe Pod, and the claims a
// ConfigMap has seen.
const probeLabel = "example.com/probe"

// serviceEvent is one change of a Service.
type serviceEvent struct {
	verb     string
	old, cur *corev1.Service
}

// ServiceWatcher starts a probe Pod for each Service that asks for one.
type ServiceWatcher struct {
	client kubernetes.Interface
	queue  *cache.FIFO
}

func (w *ServiceWatcher) run() {
	for {
		_, err := w.queue.Pop(func(obj interface{}, _ bool) error { // want "ServiceWatcher/reconcile-entry"
			ev, ok := obj.(serviceEvent)
			if !ok {
				return nil
			}
			w.handle(ev)
			return nil
		})
		if err != nil {
			return
		}
	}
}

// handle starts the probe Pod of a Service added with the probe label.
func (w *ServiceWatcher) handle(ev serviceEvent) {
	if ev.verb != "add" || ev.cur.Labels[probeLabel] == "" {
		return
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: ev.cur.Name + "-probe", Namespace: ev.cur.Namespace},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "probe", Image: "busybox"}}},
	}
	_, _ = w.client.CoreV1().Pods(pod.Namespace).Create(context.TODO(), pod, metav1.CreateOptions{})
}

// ConfigMapClaims labels the claims of each ConfigMap's namespace.
type ConfigMapClaims struct {
	client     kubernetes.Interface
	configMaps corelisters.ConfigMapLister
	queue      workqueue.TypedRateLimitingInterface[string]
}

func (c *ConfigMapClaims) run() {
	for c.next() {
	}
}

func (c *ConfigMapClaims) next() bool {
	key, quit := c.queue.Get()
	if quit {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(key); err != nil {
		c.queue.AddRateLimited(key) // want "ConfigMapClaims/requeue-error"
		return true
	}
	c.queue.Forget(key)
	return true
}

func (c *ConfigMapClaims) sync(key string) error { // want "ConfigMapClaims/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cm, err := c.configMaps.ConfigMaps(namespace).Get(name) // want "ConfigMapClaims/reread"
	if err != nil {
		return err
	}
	return labelClaims(context.TODO(), c.client, cm.Namespace, cm.Name)
}

// labelClaims labels every claim of a namespace with the name it is
// handed.
func labelClaims(ctx context.Context, client kubernetes.Interface, namespace, name string) error {
	claims, err := client.CoreV1().PersistentVolumeClaims(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, pvc := range claims.Items {
		pvc.Labels = map[string]string{probeLabel: name}
		if _, err := client.CoreV1().PersistentVolumeClaims(namespace).Update(ctx, &pvc, metav1.UpdateOptions{}); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	cfg, err := rest.InClusterConfig()
	if err != nil {
		panic(err)
	}
	client := kubernetes.NewForConfigOrDie(cfg)
	factory := informers.NewSharedInformerFactory(client, 0)
	watcher := &ServiceWatcher{client: client, queue: cache.NewFIFO(cache.MetaNamespaceKeyFunc)}
	_, _ = factory.Core().V1().Services().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if svc, ok := obj.(*corev1.Service); ok {
				_ = watcher.queue.Add(serviceEvent{verb: "add", cur: svc})
			}
		},
	})
	claims := &ConfigMapClaims{
		client:     client,
		configMaps: factory.Core().V1().ConfigMaps().Lister(),
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
	}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				claims.queue.Add(key)
			}
		},
	})
	stop := make(chan struct{})
	factory.Start(stop)
	go watcher.run()
	go wait.Until(claims.run, time.Second, stop)
	<-stop
}
