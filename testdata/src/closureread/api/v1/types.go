// Package v1 holds the Shelf API.
// +groupName=shelves.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Shelf API.
	GroupVersion = schema.GroupVersion{Group: "shelves.example.com", Version: "v1"}

	// SchemeBuilder registers the Shelf type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Shelf{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// ShelfSpec sizes a Shelf.
type ShelfSpec struct {
	Slots int32 `json:"slots,omitempty"`
}

// ShelfStatus counts the passes that saw a Shelf's spec.
type ShelfStatus struct {
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Shelf holds a number of slots.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ShelfSpec   `json:"spec,omitempty"`
	Status ShelfStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Shelf) DeepCopyObject() runtime.Object {
	out := new(Shelf)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
