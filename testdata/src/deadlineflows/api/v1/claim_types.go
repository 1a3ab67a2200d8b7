package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ClaimSpec defines the desired state of a Claim.
type ClaimSpec struct {
	// HoldSeconds is how long a released Claim is kept, in seconds.
	HoldSeconds int64 `json:"holdSeconds"` // want "ClaimReconciler/trace:spec-field"
}

// ClaimStatus defines the observed state of a Claim.
type ClaimStatus struct {
	// ReleasedAt is when the Claim was released.
	// +optional
	ReleasedAt metav1.Time `json:"releasedAt,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Claim is held for a while after its release, for as long as its spec says.
type Claim struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ClaimSpec   `json:"spec,omitempty"`
	Status ClaimStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// ClaimList contains a list of Claim.
type ClaimList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Claim `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Claim{}, &ClaimList{})
}

// DeepCopyInto copies the receiver into out.
func (in *Claim) DeepCopyInto(out *Claim) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Status.ReleasedAt.DeepCopyInto(&out.Status.ReleasedAt)
}

// DeepCopy returns a deep copy of the Claim.
func (in *Claim) DeepCopy() *Claim {
	if in == nil {
		return nil
	}
	out := new(Claim)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Claim) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// DeepCopyInto copies the receiver into out.
func (in *ClaimList) DeepCopyInto(out *ClaimList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Claim, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy of the ClaimList.
func (in *ClaimList) DeepCopy() *ClaimList {
	if in == nil {
		return nil
	}
	out := new(ClaimList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *ClaimList) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// GetStatus hands back the Claim's status.
func (in *Claim) GetStatus() *ClaimStatus {
	return &in.Status
}
