package controller

import (
	"context"
	"encoding/json"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// want-none "StampReconciler/finalizer-const" "StampReconciler/finalizer-add" "StampReconciler/finalizer-cleanup" "StampReconciler/finalizer-remove"
// want-none "StampReconciler/condition-types" "StampReconciler/requeue-success" "StampReconciler/interval-trace" "StampReconciler/drift"

// StampReconciler holds Namespaces with a finalizer it adds by a JSON patch
// through the typed clientset, the patch built by option functions that
// ctrlcmp does not read: the finalizer rows are not settled (the test says
// so), never "no finalizer".
type StampReconciler struct {
	client.Client
	Kube kubernetes.Interface
}

// patchOp is one operation of a JSON patch.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// patchOption adds operations to a patch.
type patchOption func(ops []patchOp) []patchOp

// withReplace replaces the value at path.
func withReplace(path string, value any) patchOption {
	return func(ops []patchOp) []patchOp { return append(ops, patchOp{Op: "replace", Path: path, Value: value}) }
}

// buildPatch applies the options to an empty patch.
func buildPatch(opts ...patchOption) ([]byte, error) {
	var ops []patchOp
	for _, o := range opts {
		ops = o(ops)
	}
	return json.Marshal(ops)
}

// Reconcile stamps the Namespace's finalizers.
func (r *StampReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "StampReconciler/reconcile-entry"
	var ns corev1.Namespace
	if err := r.Get(ctx, req.NamespacedName, &ns); err != nil { // want "StampReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	data, err := buildPatch(withReplace("/metadata/finalizers", append(ns.Finalizers, "finproof.example.com/stamp")))
	if err != nil {
		return ctrl.Result{}, err
	}
	_, err = r.Kube.CoreV1().Namespaces().Patch(ctx, ns.Name, types.JSONPatchType, data, metav1.PatchOptions{}) // want "StampReconciler/write-always"
	return ctrl.Result{}, err                                                                                   // want "StampReconciler/requeue-error"
}

// SetupWithManager registers the reconciler for Namespaces.
func (r *StampReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&corev1.Namespace{}).Named("stamp").Complete(r)
}
