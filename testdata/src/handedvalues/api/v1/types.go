// Package v1 holds the Relay API.
// +groupName=relays.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Relay API.
	GroupVersion = schema.GroupVersion{Group: "relays.example.com", Version: "v1"}

	// SchemeBuilder registers the Relay type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Relay{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// RelaySpec names the ConfigMap a Relay forwards its message to.
type RelaySpec struct {
	Target  string `json:"target"`
	Message string `json:"message"`
}

// Relay forwards a message into a ConfigMap.
type Relay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RelaySpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Relay) DeepCopyObject() runtime.Object {
	out := new(Relay)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
