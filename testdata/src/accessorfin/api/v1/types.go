// Package v1 holds the Vault API.
// +groupName=vaults.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Group is the API group of the Vault kind.
const Group = "vaults.example.com"

var (
	// GroupVersion is the group and version of the Vault API.
	GroupVersion = schema.GroupVersion{Group: Group, Version: "v1"}

	// SchemeBuilder registers the Vault type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Vault{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// VaultSpec names the Secret a Vault seals.
type VaultSpec struct {
	SecretName string `json:"secretName"`
}

// Vault seals one Secret.
type Vault struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec VaultSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Vault) DeepCopyObject() runtime.Object {
	out := new(Vault)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
