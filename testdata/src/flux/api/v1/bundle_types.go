package v1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

const (
	// BundleKind is the string representation of a Bundle.
	BundleKind = "Bundle"

	// BundleFinalizer is set on every Bundle so its ConfigMap is deleted first.
	BundleFinalizer = "finalizers.example.com" // want "finalizer-const"

	// InvalidSpecReason signals a Bundle whose spec can never be reconciled.
	InvalidSpecReason = "InvalidSpec"
)

// BundleSpec defines the desired state of a Bundle.
type BundleSpec struct {
	// Interval at which the Bundle is reconciled.
	// +kubebuilder:validation:Type=string
	// +required
	Interval metav1.Duration `json:"interval"` // want "trace:spec-field"

	// RetryInterval is the interval at which to retry a failed reconciliation.
	// Defaults to Interval.
	// +kubebuilder:validation:Type=string
	// +optional
	RetryInterval *metav1.Duration `json:"retryInterval,omitempty"`

	// Suspend tells the controller to skip reconciliation.
	// +optional
	Suspend bool `json:"suspend,omitempty"`

	// Entries are written into the Bundle's ConfigMap.
	// +optional
	Entries map[string]string `json:"entries,omitempty"`
}

// BundleStatus defines the observed state of a Bundle.
type BundleStatus struct {
	// ObservedGeneration is the last reconciled generation.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Bundle renders a set of entries into a ConfigMap on an interval.
type Bundle struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BundleSpec   `json:"spec,omitempty"`
	Status BundleStatus `json:"status,omitempty"`
}

// GetConditions returns the status conditions of the object.
func (in *Bundle) GetConditions() []metav1.Condition {
	return in.Status.Conditions
}

// SetConditions sets the status conditions on the object.
func (in *Bundle) SetConditions(conditions []metav1.Condition) {
	in.Status.Conditions = conditions
}

// GetRequeueAfter returns the duration after which the Bundle must be
// reconciled again.
func (in *Bundle) GetRequeueAfter() time.Duration { // want "trace:getter"
	return in.Spec.Interval.Duration // want "trace:getter-body"
}

// GetRetryInterval returns the retry interval, falling back to the interval.
func (in *Bundle) GetRetryInterval() time.Duration {
	if in.Spec.RetryInterval != nil {
		return in.Spec.RetryInterval.Duration
	}
	return in.GetRequeueAfter()
}

// +kubebuilder:object:root=true

// BundleList contains a list of Bundles.
type BundleList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Bundle `json:"items"`
}

// DeepCopyInto copies the receiver into out.
func (in *Bundle) DeepCopyInto(out *Bundle) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.RetryInterval != nil {
		d := *in.Spec.RetryInterval
		out.Spec.RetryInterval = &d
	}
	if in.Spec.Entries != nil {
		out.Spec.Entries = make(map[string]string, len(in.Spec.Entries))
		for k, v := range in.Spec.Entries {
			out.Spec.Entries[k] = v
		}
	}
	if in.Status.Conditions != nil {
		out.Status.Conditions = make([]metav1.Condition, len(in.Status.Conditions))
		for i := range in.Status.Conditions {
			in.Status.Conditions[i].DeepCopyInto(&out.Status.Conditions[i])
		}
	}
}

// DeepCopy returns a deep copy of the Bundle.
func (in *Bundle) DeepCopy() *Bundle {
	if in == nil {
		return nil
	}
	out := new(Bundle)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Bundle) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// DeepCopyInto copies the receiver into out.
func (in *BundleList) DeepCopyInto(out *BundleList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Bundle, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy of the BundleList.
func (in *BundleList) DeepCopy() *BundleList {
	if in == nil {
		return nil
	}
	out := new(BundleList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *BundleList) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}
