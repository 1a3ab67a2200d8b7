package controller

import (
	"context"
	"encoding/json"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// endpointsFinalizer holds Endpoints while their reconciler tracks them.
const endpointsFinalizer = "finfall.example.com/tracked" // want "EndpointsReconciler/finalizer-const"

// want-none "EndpointsReconciler/finalizer-cleanup" "EndpointsReconciler/finalizer-remove"

// patchOp is one operation of a JSON patch.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value string `json:"value,omitempty"`
}

// EndpointsReconciler adds its finalizer with a JSON patch whose operations
// a helper builds (the patch literal is not where it is sent). A generated
// defaulter, called first, adds the finalizer too: that addition supports
// the reconciler's own.
type EndpointsReconciler struct {
	client.Client
}

// Reconcile defaults the Endpoints and makes sure they carry the finalizer.
func (r *EndpointsReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "EndpointsReconciler/reconcile-entry"
	ep := &corev1.Endpoints{}
	if err := r.Get(ctx, req.NamespacedName, ep); err != nil { // want "EndpointsReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	setEndpointsDefaults(ep)
	return ctrl.Result{}, r.track(ctx, ep) // want "EndpointsReconciler/requeue-error"
}

// track adds the finalizer when the Endpoints lack it.
func (r *EndpointsReconciler) track(ctx context.Context, ep *corev1.Endpoints) error {
	if slices.Contains(ep.Finalizers, endpointsFinalizer) {
		return nil
	}
	return r.patchEndpoints(ctx, ep, trackOps()) // want "EndpointsReconciler/finalizer-add"
}

// trackOps is the JSON patch that appends the finalizer.
func trackOps() []patchOp {
	return []patchOp{{Op: "add", Path: "/metadata/finalizers/-", Value: endpointsFinalizer}}
}

// patchEndpoints sends a JSON patch of the Endpoints.
func (r *EndpointsReconciler) patchEndpoints(ctx context.Context, ep *corev1.Endpoints, ops []patchOp) error {
	data, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	return r.Patch(ctx, ep, client.RawPatch(types.JSONPatchType, data))
}

// SetupWithManager registers the reconciler for Endpoints.
func (r *EndpointsReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Endpoints{}).Complete(r)
}
