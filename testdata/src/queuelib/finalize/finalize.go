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

// Finalizer adds and removes the one finalizer it was made for: the
// finlib fixture reaches it only through the interface.
type Finalizer interface {
	AddFinalizer(obj metav1.Object)
	RemoveFinalizer(obj metav1.Object)
}

// NewFinalizer returns the Finalizer of a finalizer name.
func NewFinalizer(name string) Finalizer { return named(name) }

// named is the Finalizer of one name.
type named string

// AddFinalizer adds the finalizer.
func (n named) AddFinalizer(obj metav1.Object) { Add(obj, string(n)) }

// RemoveFinalizer removes the finalizer.
func (n named) RemoveFinalizer(obj metav1.Object) { Remove(obj, string(n)) }

// Labeler reads an object through an interface and changes nothing.
type Labeler interface {
	Label(obj metav1.Object) string
}

// NewLabeler returns a Labeler.
func NewLabeler() Labeler { return labeler{} }

type labeler struct{}

// Label names an object's namespace and name.
func (labeler) Label(obj metav1.Object) string { return Describe(obj) }

// AddToMeta adds a finalizer to an object's metadata: the finlib fixture
// hands it the metadata of a wrapper around its object.
func AddToMeta(meta *metav1.ObjectMeta, name string) {
	if !HasInMeta(meta, name) {
		meta.Finalizers = append(meta.Finalizers, name)
	}
}

// RemoveFromMeta drops a finalizer from an object's metadata.
func RemoveFromMeta(meta *metav1.ObjectMeta, name string) {
	meta.Finalizers = slices.DeleteFunc(meta.Finalizers, func(f string) bool { return f == name })
}

// HasInMeta tests an object's metadata for a finalizer.
func HasInMeta(meta *metav1.ObjectMeta, name string) bool {
	return slices.Contains(meta.Finalizers, name)
}
