// Package v1 holds the Volume and Pool API.
// +groupName=storage.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the API.
	GroupVersion = schema.GroupVersion{Group: "storage.example.com", Version: "v1"}

	// SchemeBuilder registers the types.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Volume{}, &Pool{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// VolumeFinalizer holds a Volume until it is no longer mounted.
const VolumeFinalizer = "storage.example.com/mounted" // want "VolumeReconciler/finalizer-const"

// PoolFinalizer holds a Pool until its disks are released.
const PoolFinalizer = "storage.example.com/disks" // want "PoolReconciler/finalizer-const"

// VolumeSpec says whether a Volume was taken out of management.
type VolumeSpec struct {
	Unmanaged bool `json:"unmanaged,omitempty"`
}

// VolumeStatus says whether a Volume is mounted.
type VolumeStatus struct {
	Mounted bool `json:"mounted,omitempty"`
	Checked bool `json:"checked,omitempty"`
}

// Volume is a disk mounted on a node.
type Volume struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   VolumeSpec   `json:"spec,omitempty"`
	Status VolumeStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Volume) DeepCopyObject() runtime.Object {
	out := new(Volume)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

// PoolSpec says whether a Pool's disks outlive it.
type PoolSpec struct {
	Retain bool `json:"retain,omitempty"`
}

// PoolStatus counts the disks of a Pool still in use.
type PoolStatus struct {
	InUse int32 `json:"inUse,omitempty"`
}

// Pool is a set of disks.
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PoolSpec   `json:"spec,omitempty"`
	Status PoolStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Pool) DeepCopyObject() runtime.Object {
	out := new(Pool)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
