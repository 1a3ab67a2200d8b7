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

// want-none "DereferenceReconciler/condition-types" "DereferenceReconciler/requeue-success" "DereferenceReconciler/interval-trace" "DereferenceReconciler/drift"

// dereferenceFinalizer holds a Service until its references and its
// catalogue entry are gone.
const dereferenceFinalizer = "finproof.example.com/dereference" // want "DereferenceReconciler/finalizer-const"

// referrerLabel names, on a ConfigMap, the Service it refers to.
const referrerLabel = "finproof.example.com/referrer"

// DereferenceReconciler keeps Services in a catalogue. On deletion its
// branch runs two pieces of work one after the other, each handed the
// object and each keeping its error: it deletes the ConfigMaps that refer
// to the Service, then drops the Service from the catalogue. The finalizer
// holds the object for both; the cleanup is the first, the work the branch
// opens with (as readers keying real trees by hand cite it, eight times in
// ten).
type DereferenceReconciler struct {
	client.Client
	catalogue string
}

// Reconcile keeps the finalizer on one Service.
func (r *DereferenceReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "DereferenceReconciler/reconcile-entry"
	var svc corev1.Service
	if err := r.Get(ctx, req.NamespacedName, &svc); err != nil { // want "DereferenceReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !svc.DeletionTimestamp.IsZero() {
		if err := r.dropReferences(ctx, &svc); err != nil {
			return ctrl.Result{}, err
		}
		if err := r.uncatalogue(ctx, &svc); err != nil {
			return ctrl.Result{}, err
		}
		controllerutil.RemoveFinalizer(&svc, dereferenceFinalizer) // want "DereferenceReconciler/finalizer-remove"
		return ctrl.Result{}, r.Update(ctx, &svc)
	}
	if controllerutil.AddFinalizer(&svc, dereferenceFinalizer) { // want "DereferenceReconciler/finalizer-add"
		return ctrl.Result{}, r.Update(ctx, &svc) // want "DereferenceReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// dropReferences deletes the ConfigMaps that refer to a Service.
func (r *DereferenceReconciler) dropReferences(ctx context.Context, svc *corev1.Service) error { // want "DereferenceReconciler/finalizer-cleanup"
	return r.DeleteAllOf(ctx, &corev1.ConfigMap{}, client.InNamespace(svc.Namespace), client.MatchingLabels{referrerLabel: svc.Name})
}

// uncatalogue drops a Service from the catalogue.
func (r *DereferenceReconciler) uncatalogue(ctx context.Context, svc *corev1.Service) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, r.catalogue+"?"+url.Values{"service": {svc.Namespace + "/" + svc.Name}}.Encode(), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("catalogue: %s", resp.Status)
	}
	return nil
}

// SetupWithManager registers the reconciler for Services.
func (r *DereferenceReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Service{}).Named("dereference").Complete(r)
}
