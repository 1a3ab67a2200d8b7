// Package v1 holds the Gauge API: a Gauge is re-read on an interval its
// annotation sets.
// +kubebuilder:object:generate=true
// +groupName=example.com
package v1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Gauge API.
	GroupVersion = schema.GroupVersion{Group: "example.com", Version: "v1"}

	// SchemeBuilder registers the Gauge types.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Gauge{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// EveryAnnotation sets how often a Gauge is reconciled.
const EveryAnnotation = "example.com/every"

// GaugeSpec is what a Gauge measures.
type GaugeSpec struct {
	// Target names what is measured.
	Target string `json:"target"`
}

// GaugeStatus is what the controller observed.
type GaugeStatus struct {
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Gauge measures a target on an interval.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GaugeSpec   `json:"spec,omitempty"`
	Status GaugeStatus `json:"status,omitempty"`
}

// GetConditions returns the status conditions of the object.
func (in *Gauge) GetConditions() []metav1.Condition {
	return in.Status.Conditions
}

// SetConditions sets the status conditions on the object.
func (in *Gauge) SetConditions(conditions []metav1.Condition) {
	in.Status.Conditions = conditions
}

// GetEvery is the interval the annotation sets, an hour when it sets none
// that parses.
func (in *Gauge) GetEvery() time.Duration { // want "trace:getter"
	raw := in.GetAnnotations()[EveryAnnotation] // want "trace:computed"
	every, err := time.ParseDuration(raw)       // want "trace:computed"
	if err != nil {
		return time.Hour // want "trace:getter-body" "trace:constant"
	}
	return every // want "trace:getter-body"
}

// DeepCopyObject implements runtime.Object.
func (in *Gauge) DeepCopyObject() runtime.Object {
	out := new(Gauge)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return out
}
