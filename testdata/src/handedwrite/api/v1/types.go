// Package v1 holds the Beacon API.
// +groupName=beacons.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Beacon API.
	GroupVersion = schema.GroupVersion{Group: "beacons.example.com", Version: "v1"}

	// SchemeBuilder registers the Beacon type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Beacon{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// BeaconSpec names the ConfigMaps a Beacon lights.
type BeaconSpec struct {
	Targets []string `json:"targets"`
}

// Beacon stamps its name into each of its targets.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BeaconSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Beacon) DeepCopyObject() runtime.Object {
	out := new(Beacon)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Targets = append([]string(nil), in.Spec.Targets...)
	return out
}
