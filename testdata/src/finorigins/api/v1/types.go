// Package v1 holds the storage API: Volumes, Buckets, Mounts and Shares,
// whose finalizers are named by a function, by constants a helper is
// handed, through a finalizer manager, and by a field a constructor fills.
// +groupName=storage.example.com
package v1

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the storage API.
	GroupVersion = schema.GroupVersion{Group: "storage.example.com", Version: "v1"}

	// SchemeBuilder registers the storage types.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Volume{}, &Bucket{}, &Mount{}, &Share{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// pluginName is the name the storage plugin registers under.
func pluginName() string {
	return GroupVersion.Group
}

// VolumeFinalizer is the finalizer that holds a Volume until it is
// detached, named after the plugin.
func VolumeFinalizer() string {
	return fmt.Sprintf("%s/volume", pluginName()) // want "VolumeReconciler/finalizer-const"
}

const prefix = "storage.example.com/"

const (
	// BucketProtection holds a Bucket until its objects are emptied.
	BucketProtection = prefix + "protection" // want "BucketReconciler/finalizer-const"
	// MountCleanup holds a Mount until it is unmounted.
	MountCleanup = prefix + "unmount" // want "MountReconciler/finalizer-const"
)

// Spec is what each storage object asks for.
type Spec struct {
	Size int64 `json:"size"`
}

// Volume is a block volume.
type Volume struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec,omitempty"`
}

// Bucket is an object store bucket.
type Bucket struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec,omitempty"`
}

// Mount is a Volume mounted on a node.
type Mount struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec,omitempty"`
}

// Share is a Bucket shared with another namespace.
type Share struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec Spec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Share) DeepCopyObject() runtime.Object {
	out := new(Share)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Volume) DeepCopyObject() runtime.Object {
	out := new(Volume)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Bucket) DeepCopyObject() runtime.Object {
	out := new(Bucket)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Mount) DeepCopyObject() runtime.Object {
	out := new(Mount)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
