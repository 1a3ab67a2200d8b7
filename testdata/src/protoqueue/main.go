// Command annotator runs controllers on a queue of commands of its own
// (package cmdqueue), no client-go workqueue: a queue is known by its
// protocol, Get handing out an item that Done takes back. The annotator's
// commands carry a ConfigMap each. The mirror's worker dispatches two
// kinds of commands, Secrets and ConfigMaps, by a type switch: its kind is
// not known, and the rows about the primary's own operations are not
// settled. A pool of tokens with a Get and a Done that takes nothing is no
// queue.
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"example.com/fixtures/protoqueue/cmdqueue"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-error" "requeue-success" "interval-trace" "reread"

// seenAnnotation marks an object a controller has seen.
const seenAnnotation = "example.com/seen"

// annotate asks for one ConfigMap to be annotated.
type annotate struct {
	obj *corev1.ConfigMap
}

// Annotator annotates the ConfigMaps its commands carry.
type Annotator struct {
	client kubernetes.Interface
	queue  *cmdqueue.Queue
	tokens *tokens
}

// run handles commands until the queue is closed.
func (a *Annotator) run(ctx context.Context) {
	for {
		item, ok := a.queue.Get()
		if !ok {
			return
		}
		if err := a.handle(ctx, item); err != nil {
			klog.ErrorS(err, "Annotating failed")
		}
		a.queue.Done(item)
	}
}

// handle annotates the ConfigMap of one command, the item itself.
func (a *Annotator) handle(ctx context.Context, item any) error { // want "Annotator/reconcile-entry"
	cmd, ok := item.(*annotate)
	if !ok {
		return nil
	}
	cm := cmd.obj
	if cm.Annotations[seenAnnotation] == "" { // want "Annotator/drift:compare"
		cm = cm.DeepCopy()
		cm.Annotations = map[string]string{seenAnnotation: "yes"}
		_, err := a.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "Annotator/drift:apply"
		return err
	}
	return nil
}

// tokens bounds the work in flight: Get takes a token, Done gives one
// back (a decoy: Done takes no item, so this is no queue).
type tokens struct{ free chan struct{} }

// Get takes a token.
func (t *tokens) Get() struct{} { return <-t.free }

// Done gives a token back.
func (t *tokens) Done() { t.free <- struct{}{} }

// pace takes and gives back tokens, logging each.
func (a *Annotator) pace() {
	for {
		tok := a.tokens.Get()
		a.logToken(tok)
		a.tokens.Done()
	}
}

// logToken logs one token taken.
func (a *Annotator) logToken(tok struct{}) { klog.V(4).InfoS("Token", "token", tok) }

// copySecret and copyConfigMap ask for one object to be mirrored.
type copySecret struct{ obj *corev1.Secret }
type copyConfigMap struct{ obj *corev1.ConfigMap }

// Mirror labels the Secrets and ConfigMaps its commands carry.
type Mirror struct {
	client kubernetes.Interface
	queue  *cmdqueue.Queue
}

// run handles commands until the queue is closed.
func (m *Mirror) run(ctx context.Context) {
	for {
		item, ok := m.queue.Get()
		if !ok {
			return
		}
		if err := m.dispatch(ctx, item); err != nil {
			klog.ErrorS(err, "Mirroring failed")
		}
		m.queue.Done(item)
	}
}

// dispatch hands each command to the function for its kind.
func (m *Mirror) dispatch(ctx context.Context, item any) error { // want "Mirror/reconcile-entry"
	switch cmd := item.(type) {
	case *copySecret:
		return m.secret(ctx, cmd.obj)
	case *copyConfigMap:
		return m.configMap(ctx, cmd.obj)
	}
	return nil
}

// secret labels one Secret.
func (m *Mirror) secret(ctx context.Context, s *corev1.Secret) error {
	if s.Labels[seenAnnotation] != "" { // want "Mirror/drift:compare"
		return nil
	}
	s = s.DeepCopy()
	s.Labels = map[string]string{seenAnnotation: "yes"}
	_, err := m.client.CoreV1().Secrets(s.Namespace).Update(ctx, s, metav1.UpdateOptions{}) // want "Mirror/drift:apply"
	return err
}

// configMap labels one ConfigMap.
func (m *Mirror) configMap(ctx context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels[seenAnnotation] != "" { // want "Mirror/drift:compare"
		return nil
	}
	cm = cm.DeepCopy()
	cm.Labels = map[string]string{seenAnnotation: "yes"}
	_, err := m.client.CoreV1().ConfigMaps(cm.Namespace).Update(ctx, cm, metav1.UpdateOptions{}) // want "Mirror/drift:apply"
	return err
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
	ann := &Annotator{client: client, queue: cmdqueue.New(), tokens: &tokens{free: make(chan struct{}, 4)}}
	mir := &Mirror{client: client, queue: cmdqueue.New()}
	_, _ = factory.Core().V1().ConfigMaps().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			cm := obj.(*corev1.ConfigMap)
			ann.queue.Insert(&annotate{obj: cm})
			mir.queue.Insert(&copyConfigMap{obj: cm})
		},
	})
	_, _ = factory.Core().V1().Secrets().Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { mir.queue.Insert(&copySecret{obj: obj.(*corev1.Secret)}) },
	})
	factory.Start(ctx.Done())
	go ann.run(ctx)
	go ann.pace()
	go mir.run(ctx)
	<-ctx.Done()
	ann.queue.Close()
	mir.queue.Close()
}
