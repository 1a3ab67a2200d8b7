// Package mirror holds a controller that copies a ConfigMap's data into a
// mirror ConfigMap, run on the worker of a controller library.
package mirror

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/fixtures/workerlib"
)

// want-none "Mirror/finalizer-const" "Mirror/finalizer-add" "Mirror/finalizer-cleanup" "Mirror/finalizer-remove" "Mirror/condition-types" "Mirror/interval-trace"

// The library's worker requeues a failed key rate-limited, but which
// failure return is the main work's is not read through it: requeue-error
// is not settled. Every return hands back a nil delay, so the library's
// AddAfter never runs: requeue-success is none.
// want-none "Mirror/requeue-error" "Mirror/requeue-success"

// Mirror keeps a "-mirror" copy of each ConfigMap.
type Mirror struct {
	client     kubernetes.Interface
	configMaps corelisters.ConfigMapLister
	controller *workerlib.Controller
}

// New wires the mirror to the ConfigMap informer.
func New(client kubernetes.Interface, configMaps coreinformers.ConfigMapInformer) (*Mirror, error) {
	m := &Mirror{client: client, configMaps: configMaps.Lister()}
	m.controller = workerlib.New("mirror").WithHandlerFunc(m.handle)
	if _, err := configMaps.Informer().AddEventHandler(m.controller.EventHandler()); err != nil {
		return nil, err
	}
	return m, nil
}

// Run runs the controller until ctx is done.
func (m *Mirror) Run(ctx context.Context) { m.controller.Run(ctx) }

func (m *Mirror) handle(obj any) (*time.Duration, error) { // want "Mirror/reconcile-entry"
	key := obj.(string)
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil, nil
	}
	cm, err := m.configMaps.ConfigMaps(namespace).Get(name) // want "Mirror/reread"
	if errors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return nil, m.sync(cm)
}

func (m *Mirror) sync(cm *corev1.ConfigMap) error {
	mirrors := m.client.CoreV1().ConfigMaps(cm.Namespace)
	live, err := mirrors.Get(context.TODO(), cm.Name+"-mirror", metav1.GetOptions{})
	if errors.IsNotFound(err) {
		_, err = mirrors.Create(context.TODO(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: cm.Name + "-mirror", Namespace: cm.Namespace}, Data: cm.Data}, metav1.CreateOptions{})
		return err
	}
	if err != nil {
		return err
	}
	if equality.Semantic.DeepEqual(live.Data, cm.Data) { // want "Mirror/drift:compare"
		return nil
	}
	live = live.DeepCopy()
	live.Data = cm.Data
	_, err = mirrors.Update(context.TODO(), live, metav1.UpdateOptions{}) // want "Mirror/drift:apply"
	return err
}
