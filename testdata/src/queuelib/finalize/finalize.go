// Package finalize stands for an organisation's own finalizer helpers: the
// finproof fixture adds and removes its finalizer through them.
package finalize

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Add adds a finalizer to an object that lacks it.
func Add(obj metav1.Object, name string) {
	if !Has(obj, name) {
		obj.SetFinalizers(append(obj.GetFinalizers(), name))
	}
}

// Remove drops a finalizer from an object.
func Remove(obj metav1.Object, name string) {
	obj.SetFinalizers(slices.DeleteFunc(obj.GetFinalizers(), func(f string) bool { return f == name }))
}

// Has tests for a finalizer.
func Has(obj metav1.Object, name string) bool {
	return slices.Contains(obj.GetFinalizers(), name)
}

// Describe names an object: it is handed the object and changes nothing.
func Describe(obj metav1.Object) string {
	return obj.GetNamespace() + "/" + obj.GetName()
}
