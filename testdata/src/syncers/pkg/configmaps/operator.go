// Package configmaps is an operator of ConfigMaps on the shared Reconciler.
package configmaps

import (
	"context"

	"k8s.io/apimachinery/pkg/api/errors"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"example.com/fixtures/syncers/pkg/reconciler"
)

// want-none "configmaps.Operator/finalizer-const" "configmaps.Operator/finalizer-add" "configmaps.Operator/finalizer-cleanup" "configmaps.Operator/finalizer-remove" "configmaps.Operator/condition-types" "configmaps.Operator/requeue-success" "configmaps.Operator/interval-trace" "configmaps.Operator/drift"

// Operator checks ConfigMaps.
type Operator struct {
	configMaps corelisters.ConfigMapLister
	rr         *reconciler.Reconciler
}

// New is an Operator on its own Reconciler.
func New(configMaps corelisters.ConfigMapLister) *Operator {
	o := &Operator{configMaps: configMaps}
	o.rr = reconciler.New(o)
	return o
}

// Sync checks the ConfigMap of key.
func (o *Operator) Sync(_ context.Context, key string) error { // want "configmaps.Operator/reconcile-entry"
	namespace, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	_, err = o.configMaps.ConfigMaps(namespace).Get(name) // want "configmaps.Operator/reread"
	if errors.IsNotFound(err) {
		return nil
	}
	return err
}

// Run runs the operator's Reconciler.
func (o *Operator) Run(ctx context.Context) { o.rr.Run(ctx) }
