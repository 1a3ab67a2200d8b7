// Package v1 holds the Bundle kind.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// BundleSpec is what a Bundle asks for: the data each ConfigMap it makes
// carries.
type BundleSpec struct {
	Data map[string]string `json:"data,omitempty"`
}

// BundleStatus records what the controller last did.
type BundleStatus struct {
	// SeenVersion is the resource version of the ConfigMap last seen.
	SeenVersion string `json:"seenVersion,omitempty"`
}

// Bundle is a kind whose controller makes one ConfigMap of its data.
type Bundle struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BundleSpec   `json:"spec,omitempty"`
	Status            BundleStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Bundle.
func (in *Bundle) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Data = map[string]string{}
	for k, v := range in.Spec.Data {
		out.Spec.Data[k] = v
	}
	return &out
}
