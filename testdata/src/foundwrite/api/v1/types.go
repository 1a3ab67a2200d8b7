// Package v1 holds the Meter API.
// +groupName=meters.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Meter API.
	GroupVersion = schema.GroupVersion{Group: "meters.example.com", Version: "v1"}

	// SchemeBuilder registers the Meter type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Meter{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// MeterSpec names the ledger a Meter counts into.
type MeterSpec struct {
	Ledger string `json:"ledger"`
}

// Meter counts its passes into a ledger.
type Meter struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec MeterSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Meter) DeepCopyObject() runtime.Object {
	out := new(Meter)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)

	return out
}
