// Package services is an operator of Services on the shared Reconciler that
// reads through a generic helper of the tree's own: the Service is re-read
// by the key, and a ConfigMap named after it is another object. It adds its
// finalizer with a JSON patch, and one to the ConfigMap too, which is a
// child's.
package services

import (
	"context"
	"encoding/json"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"example.com/fixtures/syncers/pkg/reconciler"
	"example.com/fixtures/syncers/pkg/store"
)

// want-none "services.Operator/finalizer-cleanup" "services.Operator/finalizer-remove" "services.Operator/condition-types" "services.Operator/requeue-success" "services.Operator/interval-trace" "services.Operator/drift"

const (
	// serviceFinalizer holds a Service until its ConfigMap is released.
	serviceFinalizer = "services.syncers.example.com/config" // want "services.Operator/finalizer-const"
	// configFinalizer holds the ConfigMap while its Service uses it: a
	// child's finalizer.
	configFinalizer = "services.syncers.example.com/in-use"
)

// patchOp is one operation of a JSON patch.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value string `json:"value,omitempty"`
}

// Operator checks that each Service has its ConfigMap.
type Operator struct {
	client               kubernetes.Interface
	services, configMaps *store.Informers
	rr                   *reconciler.Reconciler
}

// New is an Operator on its own Reconciler.
func New(client kubernetes.Interface, services, configMaps *store.Informers) *Operator {
	o := &Operator{client: client, services: services, configMaps: configMaps}
	o.rr = reconciler.New(o)
	return o
}

// Sync checks the Service of key.
func (o *Operator) Sync(ctx context.Context, key string) error { // want "services.Operator/reconcile-entry"
	svc, err := store.ObjectFromKey[*corev1.Service](o.services, key) // want "services.Operator/reread"
	if err != nil || svc == nil {
		return err
	}
	if !slices.Contains(svc.Finalizers, serviceFinalizer) {
		return o.patchService(ctx, svc, []patchOp{{Op: "add", Path: "/metadata/finalizers/-", Value: serviceFinalizer}}) // want "services.Operator/finalizer-add"
	}
	cm, err := store.ObjectFromKey[*corev1.ConfigMap](o.configMaps, key+"-config")
	if err != nil || cm == nil {
		return err
	}
	ops := []patchOp{{Op: "add", Path: "/metadata/finalizers/-", Value: configFinalizer}}
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = o.client.CoreV1().ConfigMaps(cm.Namespace).Patch(ctx, cm.Name, types.JSONPatchType, data, metav1.PatchOptions{}) // want "services.Operator/write-always"
	return err
}

// patchService sends a JSON patch of a Service.
func (o *Operator) patchService(ctx context.Context, svc *corev1.Service, ops []patchOp) error {
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = o.client.CoreV1().Services(svc.Namespace).Patch(ctx, svc.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// Run runs the operator's Reconciler.
func (o *Operator) Run(ctx context.Context) { o.rr.Run(ctx) }
