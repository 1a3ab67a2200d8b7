package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A Mirror carries two finalizers of its own, one per purpose.
const (
	// MirrorFinalizer holds the Mirror until its copied data is removed.
	MirrorFinalizer = "mirror.valueflow.example.com/cleanup" // want "MirrorReconciler/finalizer-const"
	// ExportFinalizer holds the Mirror until its export is withdrawn.
	ExportFinalizer = "mirror.valueflow.example.com/export"
)

// MirrorSpec defines the desired state of a Mirror.
type MirrorSpec struct {
	// Source names the ConfigMap mirrored.
	Source string `json:"source"`
	// RefreshInterval is how often the mirror is refreshed; the
	// controller's default applies when it is zero.
	// +optional
	RefreshInterval metav1.Duration `json:"refreshInterval,omitempty"` // want "MirrorReconciler/trace:spec-field"
}

// MirrorStatus defines the observed state of a Mirror.
type MirrorStatus struct {
	// LastRefresh is when the mirror was last refreshed.
	// +optional
	LastRefresh metav1.Time `json:"lastRefresh,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Mirror copies a ConfigMap on an interval.
type Mirror struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   MirrorSpec   `json:"spec,omitempty"`
	Status MirrorStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// MirrorList contains a list of Mirror.
type MirrorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Mirror `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Mirror{}, &MirrorList{})
}

// DeepCopyInto copies the receiver into out.
func (in *Mirror) DeepCopyInto(out *Mirror) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Status.LastRefresh.DeepCopyInto(&out.Status.LastRefresh)
}

// DeepCopy returns a deep copy of the Mirror.
func (in *Mirror) DeepCopy() *Mirror {
	if in == nil {
		return nil
	}
	out := new(Mirror)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Mirror) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// DeepCopyInto copies the receiver into out.
func (in *MirrorList) DeepCopyInto(out *MirrorList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Mirror, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy of the MirrorList.
func (in *MirrorList) DeepCopy() *MirrorList {
	if in == nil {
		return nil
	}
	out := new(MirrorList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *MirrorList) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}
