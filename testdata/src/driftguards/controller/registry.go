package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "RegistryReconciler/finalizer-const" "RegistryReconciler/finalizer-add" "RegistryReconciler/finalizer-cleanup" "RegistryReconciler/finalizer-remove" "RegistryReconciler/condition-types" "RegistryReconciler/requeue-success" "RegistryReconciler/interval-trace"

// Registry is a system outside the cluster that keeps each Bundle's data.
type Registry interface {
	// Entry reads the data kept for a Bundle.
	Entry(ctx context.Context, b *v1.Bundle) (map[string]string, error)
	// Put keeps a Bundle's data.
	Put(ctx context.Context, b *v1.Bundle) error
}

// RegistryReconciler keeps each Bundle's data in the Registry: it reads
// what the Registry keeps, compares it with the Bundle's spec, and puts the
// Bundle when they differ. Nothing of the cluster is written: whether
// "drift" means a system outside the cluster is not settled.
type RegistryReconciler struct {
	client.Client
	Registry Registry
}

// Reconcile puts the Bundle's data into the Registry when it drifted.
func (r *RegistryReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "RegistryReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "RegistryReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	kept, err := r.Registry.Entry(ctx, b)
	if err != nil {
		return ctrl.Result{}, err
	}
	if !maps.Equal(kept, b.Spec.Data) {
		if err := r.Registry.Put(ctx, b); err != nil { // want "RegistryReconciler/drift:unsettled"
			return ctrl.Result{}, err // want "RegistryReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Bundles, with the
// registry served at registryURL unless it was given one.
func (r *RegistryReconciler) SetupWithManager(mgr ctrl.Manager) error {
	if r.Registry == nil {
		r.Registry = newRegistry(registryURL)
	}
	return ctrl.NewControllerManagedBy(mgr).Named("registry").For(&v1.Bundle{}).Complete(r)
}

// httpRegistry is a Registry served over HTTP.
type httpRegistry struct {
	base string
	http *http.Client
}

// Entry reads the data kept for a Bundle.
func (h httpRegistry) Entry(ctx context.Context, b *v1.Bundle) (map[string]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base+"/"+b.Name, nil)
	if err != nil {
		return nil, err
	}
	resp, err := h.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var data map[string]string
	return data, json.NewDecoder(resp.Body).Decode(&data)
}

// Put keeps a Bundle's data.
func (h httpRegistry) Put(ctx context.Context, b *v1.Bundle) error {
	body, err := json.Marshal(b.Spec.Data)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, h.base+"/"+b.Name, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := h.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("registry: put %s: %s", b.Name, resp.Status)
	}
	return nil
}

// registryURL is where the Registry is served.
const registryURL = "http://registry.driftguards.svc"

// newRegistry makes the Registry the manager's reconciler is given.
func newRegistry(base string) Registry { return httpRegistry{base: base, http: http.DefaultClient} }
