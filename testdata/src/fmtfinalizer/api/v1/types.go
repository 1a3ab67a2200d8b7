// Package v1 holds the Lease API, whose finalizer and label names are
// formatted from the API group when the package is initialised.
// +groupName=leases.example.com
package v1

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Lease API.
	GroupVersion = schema.GroupVersion{Group: "leases.example.com", Version: "v1"}

	// SchemeBuilder registers the Lease type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Lease{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

var (
	// Finalizer holds a Lease until its holder is released.
	Finalizer = fmt.Sprintf("%s/release", GroupVersion.Group) // want "finalizer-const"

	// HolderLabel marks what holds a Lease.
	HolderLabel = fmt.Sprintf("%s/%s", GroupVersion.Group, "holder")
)

// LeaseSpec names the holder of a Lease.
type LeaseSpec struct {
	Holder string `json:"holder"`
}

// Lease is held by one holder at a time.
type Lease struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec LeaseSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Lease) DeepCopyObject() runtime.Object {
	out := new(Lease)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
