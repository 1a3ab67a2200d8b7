package controller

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	corev1 "k8s.io/api/core/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// want-none "UnregisterReconciler/condition-types" "UnregisterReconciler/requeue-success" "UnregisterReconciler/interval-trace" "UnregisterReconciler/drift"

// unregisterFinalizer holds an Endpoints object until its registry entry
// is gone.
const unregisterFinalizer = "finproof.example.com/unregister" // want "UnregisterReconciler/finalizer-const"

// UnregisterReconciler keeps Endpoints registered with a registry by name.
// On deletion its branch first asks the registry to drop the name, handing
// it only the key and keeping its error, then hands the object to a helper
// that only removes the finalizer and saves the object: the call the
// finalizer holds the object for is the first, not the helper handed the
// object.
type UnregisterReconciler struct {
	client.Client
	registry string
}

// Reconcile keeps the finalizer on one Endpoints object.
func (r *UnregisterReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "UnregisterReconciler/reconcile-entry"
	var ep corev1.Endpoints
	if err := r.Get(ctx, req.NamespacedName, &ep); err != nil { // want "UnregisterReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !ep.DeletionTimestamp.IsZero() {
		if err := r.unregister(ctx, req.Namespace, req.Name); err != nil {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.release(ctx, &ep)
	}
	if controllerutil.AddFinalizer(&ep, unregisterFinalizer) { // want "UnregisterReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &ep) // want "UnregisterReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// unregister drops a name from the registry.
func (r *UnregisterReconciler) unregister(ctx context.Context, namespace, name string) error { // want "UnregisterReconciler/finalizer-cleanup"
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, r.registry+"?"+url.Values{"name": {namespace + "/" + name}}.Encode(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("registry: %s", resp.Status)
	}
	return nil
}

// release drops the finalizer from any object and saves it.
func (r *UnregisterReconciler) release(ctx context.Context, obj client.Object) error {
	controllerutil.RemoveFinalizer(obj, unregisterFinalizer) // want "UnregisterReconciler/finalizer-remove"
	return r.Update(ctx, obj)
}

// SetupWithManager registers the reconciler for Endpoints.
func (r *UnregisterReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Endpoints{}).Named("unregister").Complete(r)
}
