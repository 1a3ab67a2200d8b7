// Package stamp holds a controller that stamps Secrets, run by the tree's
// own runner, which wraps the handler it is given in a closure.
package stamp

import (
	"context"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/depworker/pkg/runner"
)

// want-none "Stamp/finalizer-const" "Stamp/finalizer-add" "Stamp/finalizer-cleanup" "Stamp/finalizer-remove" "Stamp/condition-types" "Stamp/requeue-success" "Stamp/interval-trace"

const stampLabel = "example.com/stamped"

// Stamp labels each Secret once.
type Stamp struct {
	client  kubernetes.Interface
	secrets corelisters.SecretLister
	runner  *runner.Runner
}

// New wires the stamp to the Secret informer.
func New(client kubernetes.Interface, secrets coreinformers.SecretInformer) *Stamp {
	s := &Stamp{client: client, secrets: secrets.Lister(),
		runner: &runner.Runner{Queue: workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]())}}
	s.runner.Handle(s.sync)
	_, _ = secrets.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
				s.runner.Queue.Add(key)
			}
		},
	})
	return s
}

// Run runs the stamp until ctx is done.
func (s *Stamp) Run(ctx context.Context) { s.runner.Run(ctx) }

func (s *Stamp) sync(ctx context.Context, key string) error { // want "Stamp/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := s.secrets.Secrets(namespace).Get(name) // want "Stamp/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if secret.Labels[stampLabel] == "true" { // want "Stamp/drift:compare"
		return nil
	}
	secret = secret.DeepCopy()
	metav1.SetMetaDataLabel(&secret.ObjectMeta, stampLabel, "true")
	_, err = s.client.CoreV1().Secrets(namespace).Update(ctx, secret, metav1.UpdateOptions{}) // want "Stamp/drift:apply"
	return err
}
