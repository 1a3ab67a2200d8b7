// Package v1 holds the Stack API.
// +groupName=stacks.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Stack API.
	GroupVersion = schema.GroupVersion{Group: "stacks.example.com", Version: "v1"}

	// SchemeBuilder registers the Stack type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Stack{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// StackSpec lists the manifests a Stack applies.
type StackSpec struct {
	Manifests []string `json:"manifests,omitempty"`
}

// Stack applies a list of manifests.
type Stack struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec StackSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Stack) DeepCopyObject() runtime.Object {
	out := new(Stack)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)

	return out
}
