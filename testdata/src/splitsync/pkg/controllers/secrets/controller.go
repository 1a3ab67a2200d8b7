// Package secrets holds the controller that checks each TLS Secret against
// the CA bundle of its namespace, on the shared work loop.
package secrets

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"

	"example.com/fixtures/splitsync/pkg/controllers/util"
)

// want-none "secrets.Controller/finalizer-const" "secrets.Controller/finalizer-add" "secrets.Controller/finalizer-cleanup" "secrets.Controller/finalizer-remove" "secrets.Controller/condition-types" "secrets.Controller/requeue-success" "secrets.Controller/interval-trace" "secrets.Controller/drift"

// caBundleKey is the key of the CA bundle in its ConfigMap.
const caBundleKey = "ca.crt"

// Controller checks TLS Secrets, reading them from the API server.
type Controller struct {
	client   kubernetes.Interface
	queue    workqueue.TypedRateLimitingInterface[string]
	recorder record.EventRecorder
	// bundleName names the ConfigMap holding each namespace's CA bundle.
	bundleName string
	// reconcile is sync adapted to the loop, kept for Run to hand it.
	reconcile util.ReconcileFunc
}

// New wires the controller to the Secret informer.
func New(client kubernetes.Interface, informer coreinformers.SecretInformer, recorder record.EventRecorder, bundleName string) *Controller {
	c := &Controller{
		client:     client,
		queue:      workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()),
		recorder:   recorder,
		bundleName: bundleName,
	}
	c.reconcile = util.KeyOnly(c.sync)
	_, _ = informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			if s, ok := obj.(*corev1.Secret); ok && s.Type == corev1.SecretTypeTLS {
				if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
					c.queue.Add(key)
				}
			}
		},
	})
	return c
}

// Run runs the shared work loop with the controller's sync, adapted to
// the loop's reconcile function when the controller was made and held in
// a field, until ctx is done.
func (c *Controller) Run(ctx context.Context, workers int) {
	util.RunWithOptions(ctx, c.queue, util.Options{
		Name:       "secrets",
		Workers:    workers,
		MaxRetries: 3,
		Reconcile:  c.reconcile,
	})
}

// sync checks the TLS Secret of key.
func (c *Controller) sync(ctx context.Context, key string) error { // want "secrets.Controller/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	// The bundle is read in the Secret's namespace by a name of its own:
	// not the object the key names.
	bundle, err := c.client.CoreV1().ConfigMaps(namespace).Get(ctx, c.bundleName, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("reading the CA bundle of %s: %w", namespace, err)
	}
	secret, err := c.client.CoreV1().Secrets(namespace).Get(ctx, name, metav1.GetOptions{}) // want "secrets.Controller/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, ok := secret.Data[corev1.TLSCertKey]; !ok || bundle.Data[caBundleKey] == "" {
		c.recorder.Event(secret, corev1.EventTypeWarning, "Unverified", "the Secret has no certificate, or its namespace no CA bundle")
	}
	return nil
}
