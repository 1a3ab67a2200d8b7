// Package services is an operator of Services on the shared Reconciler that
// reads through a generic helper of the tree's own: the Service is re-read
// by the key, and a ConfigMap named after it is another object.
package services

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"example.com/fixtures/syncers/pkg/reconciler"
	"example.com/fixtures/syncers/pkg/store"
)

// want-none "services.Operator/finalizer-const" "services.Operator/finalizer-add" "services.Operator/finalizer-cleanup" "services.Operator/finalizer-remove" "services.Operator/condition-types" "services.Operator/requeue-success" "services.Operator/interval-trace" "services.Operator/drift"

// Operator checks that each Service has its ConfigMap.
type Operator struct {
	services, configMaps *store.Informers
	rr                   *reconciler.Reconciler
}

// New is an Operator on its own Reconciler.
func New(services, configMaps *store.Informers) *Operator {
	o := &Operator{services: services, configMaps: configMaps}
	o.rr = reconciler.New(o)
	return o
}

// Sync checks the Service of key.
func (o *Operator) Sync(_ context.Context, key string) error { // want "services.Operator/reconcile-entry"
	svc, err := store.ObjectFromKey[*corev1.Service](o.services, key) // want "services.Operator/reread"
	if err != nil || svc == nil {
		return err
	}
	_, err = store.ObjectFromKey[*corev1.ConfigMap](o.configMaps, key+"-config")
	return err
}

// Run runs the operator's Reconciler.
func (o *Operator) Run(ctx context.Context) { o.rr.Run(ctx) }
