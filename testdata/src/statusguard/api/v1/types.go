// Package v1 holds the Gate API.
// +groupName=gates.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Gate API.
	GroupVersion = schema.GroupVersion{Group: "gates.example.com", Version: "v1"}

	// SchemeBuilder registers the Gate type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Gate{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// ConditionSealed says the gate was sealed by hand: it stops writing.
const ConditionSealed = "Sealed"

// GateStatus is what the controller and its operators record.
type GateStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	Passes     int64              `json:"passes,omitempty"`
}

// Gate counts its passes until it is sealed.
type Gate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Status GateStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Gate) DeepCopyObject() runtime.Object {
	out := new(Gate)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return out
}
