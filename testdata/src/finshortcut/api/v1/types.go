// Package v1 holds the Tenant API.
// +groupName=tenants.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Tenant API.
	GroupVersion = schema.GroupVersion{Group: "tenants.example.com", Version: "v1"}

	// SchemeBuilder registers the Tenant type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Tenant{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// Finalizer holds a Tenant until its namespaces are gone.
const Finalizer = "tenants.example.com/namespaces" // want "finalizer-const"

// TenantSpec lists the namespaces of a Tenant.
type TenantSpec struct {
	Namespaces []string `json:"namespaces,omitempty"`
}

// Tenant owns a set of namespaces.
type Tenant struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec TenantSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Tenant) DeepCopyObject() runtime.Object {
	out := new(Tenant)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Namespaces = append([]string(nil), in.Spec.Namespaces...)
	return out
}
