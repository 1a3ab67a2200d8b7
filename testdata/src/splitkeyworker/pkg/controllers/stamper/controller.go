// Package stamper holds a controller that stamps Secrets with the time it
// first saw them, run by the agent's shared work loop like the labeller.
package stamper

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/splitkeyworker/pkg/controllers"
	"example.com/fixtures/splitkeyworker/pkg/ctrlutil"
)

// want-none "finalizer-const" "finalizer-add" "finalizer-cleanup" "finalizer-remove" "condition-types" "requeue-success" "interval-trace"

// Whether the Secret holds the stamp (_, ok := m[k]) is a test of its
// state, not a comparison of desired with live state: no drift.
// want-none "stamper/drift"

// ControllerName names the controller in logs.
const ControllerName = "stamper"

const stampAnnotation = "example.com/first-seen"

type stamper struct {
	client  kubernetes.Interface
	secrets corelisters.SecretLister
	queue   workqueue.TypedRateLimitingInterface[any]
}

// NewController wires the stamper to the Secret informer.
func NewController(client kubernetes.Interface, secrets coreinformers.SecretInformer) controllers.Controller {
	s := &stamper{
		client:  client,
		secrets: secrets.Lister(),
		queue:   workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[any]()),
	}
	if _, err := ctrlutil.AddDefaultEventHandlers(secrets.Informer(), s.queue); err != nil {
		return nil
	}
	return s
}

func (s *stamper) Run(ctx context.Context, workers int) {
	ctrlutil.Run(ctx, ControllerName, time.Second, s.queue, workers, 3, s.stamp)
}

func (s *stamper) stamp(ctx context.Context, _, namespace, name string) error { // want "stamper/reconcile-entry"
	secret, err := s.secrets.Secrets(namespace).Get(name) // want "stamper/reread"
	if err != nil {
		if errors.IsNotFound(err) {
			return nil
		}
		return err
	}
	if _, ok := secret.Annotations[stampAnnotation]; ok {
		return nil
	}
	secret = secret.DeepCopy()
	metav1.SetMetaDataAnnotation(&secret.ObjectMeta, stampAnnotation, time.Now().UTC().Format(time.RFC3339))
	_, err = s.client.CoreV1().Secrets(namespace).Update(ctx, secret, metav1.UpdateOptions{})
	return err
}
