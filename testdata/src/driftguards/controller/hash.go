package controller

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1 "example.com/fixtures/driftguards/api/v1"
)

// want-none "HashReconciler/finalizer-const" "HashReconciler/finalizer-add" "HashReconciler/finalizer-cleanup" "HashReconciler/finalizer-remove" "HashReconciler/condition-types" "HashReconciler/requeue-success" "HashReconciler/interval-trace"

// hashAnnotation, on a ConfigMap, is the hash of the data it was written
// with.
const hashAnnotation = "example.com/hash"

// HashReconciler writes one ConfigMap per key of a Bundle's data, each
// stamped with the hash of what it holds: a ConfigMap whose stamp matches
// is skipped, from inside the test that it carries one, and the update
// after those tests applies the difference.
type HashReconciler struct {
	client.Client
}

// Reconcile writes the Bundle's ConfigMaps that differ.
func (r *HashReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) { // want "HashReconciler/reconcile-entry"
	b := &v1.Bundle{}
	if err := r.Get(ctx, req.NamespacedName, b); err != nil { // want "HashReconciler/reread"
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	for key, value := range b.Spec.Data {
		sum := sha256.Sum256([]byte(value))
		desiredHash := hex.EncodeToString(sum[:])
		name := fmt.Sprintf("%s-%s", b.Name, key)
		current := &corev1.ConfigMap{}
		if err := r.Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: name}, current); err != nil {
			return ctrl.Result{}, err
		}
		if current.Labels["example.com/owner"] == b.Name {
			if h, ok := current.Annotations[hashAnnotation]; ok {
				if h == desiredHash { // want "HashReconciler/drift:compare"
					continue
				}
			}
		}
		desired := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Namespace: b.Namespace, Name: name, ResourceVersion: current.ResourceVersion,
				Labels: map[string]string{"example.com/owner": b.Name}, Annotations: map[string]string{hashAnnotation: desiredHash}},
			Data: map[string]string{key: value},
		}
		if err := r.Update(ctx, desired); err != nil { // want "HashReconciler/drift:apply"
			return ctrl.Result{}, err // want "HashReconciler/requeue-error"
		}
	}
	return ctrl.Result{}, nil
}

// SetupWithManager registers the reconciler for Bundles.
func (r *HashReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).Named("hash").For(&v1.Bundle{}).Complete(r)
}
