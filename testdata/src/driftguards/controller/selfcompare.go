package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "EchoReconciler/finalizer-const" "EchoReconciler/finalizer-add" "EchoReconciler/finalizer-cleanup" "EchoReconciler/finalizer-remove" "EchoReconciler/condition-types" "EchoReconciler/requeue-success" "EchoReconciler/interval-trace" "EchoReconciler/drift"

// EchoReconciler keeps a ConfigMap of a Bundle's data, but its drift check
// compares the desired data with itself, never with the live ConfigMap:
// it never finds a difference, the update under it never runs, and the
// drift answer is none. The writes go through a client that picks how to
// write by the object's group and kind, a test of which object this is.
type EchoReconciler struct {
	kindClient
}

// kindClient writes ConfigMaps read as unstructured objects under the
// legacy group when legacy is set.
type kindClient struct {
	client.Client
	legacy bool
}

// legacyGroup is the group ConfigMaps were written under before.
const legacyGroup = "legacy.driftguards.example.com"

// Update updates an object, under the legacy group for an unstructured
// ConfigMap when legacy is set.
func (c kindClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	gvk := obj.GetObjectKind().GroupVersionKind()
	switch o := obj.(type) {
	case *unstructured.Unstructured:
		if gvk.Group == corev1.SchemeGroupVersion.Group && gvk.Kind == configMapKind && c.legacy {
			o.SetGroupVersionKind(schema.GroupVersionKind{Group: legacyGroup, Version: gvk.Version, Kind: gvk.Kind})
			err := c.Client.Update(ctx, o, opts...)
			o.SetGroupVersionKind(gvk)
			return err
		}
	}
	return c.Client.Update(ctx, obj, opts...)
}

// configMapKind names the ConfigMap kind.
const configMapKind = "ConfigMap"

// Reconcile makes the Bundle's ConfigMap when it is missing.
func (r *EchoReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "EchoReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "EchoReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	want := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: b.Name}, Data: b.Spec.Data}
	live := &corev1.ConfigMap{}
	if err := r.Get(ctx, client.ObjectKeyFromObject(want), live); err != nil {
		if !apierrors.IsNotFound(err) {
			return ctrl.Result{}, err
		}
		return ctrl.Result{}, r.Create(ctx, want)
	}
	if !equality.Semantic.DeepDerivative(want.Data, want.Data) { // decoy: the desired data against itself
		live.Data = want.Data
		return ctrl.Result{}, r.Update(ctx, live) // want "EchoReconciler/requeue-error"
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Bundles.
func (r *EchoReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("echo").For(&v1.Bundle{}).Owns(&corev1.ConfigMap{}).Complete(r)
}
