// Package secrets is an operator of Secrets on the shared Reconciler.
package secrets

import (
	"context"

	"k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/fixtures/syncers/pkg/reconciler"
)

// want-none "secrets.Operator/finalizer-const" "secrets.Operator/finalizer-add" "secrets.Operator/finalizer-cleanup" "secrets.Operator/finalizer-remove" "secrets.Operator/condition-types" "secrets.Operator/requeue-success" "secrets.Operator/interval-trace" "secrets.Operator/drift"

// Operator checks that each Secret's storage class exists.
type Operator struct {
	client  kubernetes.Interface
	secrets corelisters.SecretLister
	rr      *reconciler.Reconciler
}

// New is an Operator on its own Reconciler.
func New(client kubernetes.Interface, secrets corelisters.SecretLister) *Operator {
	o := &Operator{client: client, secrets: secrets}
	o.rr = reconciler.New(o)
	return o
}

// Sync checks the Secret of key.
func (o *Operator) Sync(ctx context.Context, key string) error { // want "secrets.Operator/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	secret, err := o.secrets.Secrets(namespace).Get(name) // want "secrets.Operator/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return checkClass(ctx, o.client, secret.Annotations["storage-class"])
}

// checkClass reads a StorageClass by a name the Secret gives: another
// object, never the Secret's re-read.
func checkClass(ctx context.Context, client kubernetes.Interface, name string) error {
	_, err := client.StorageV1().StorageClasses().Get(ctx, name, metav1.GetOptions{})
	return err
}

// Run runs the operator's Reconciler.
func (o *Operator) Run(ctx context.Context) { o.rr.Run(ctx) }
