package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PulseSpec defines the desired state of a Pulse.
type PulseSpec struct {
	// PeriodSeconds is how long after its last beat the Pulse beats again.
	PeriodSeconds int64 `json:"periodSeconds"` // want "PulseReconciler/trace:spec-field"
	// Label is copied onto nothing; no duration comes from it.
	Label string `json:"label,omitempty"`
}

// PulseStatus defines the observed state of a Pulse.
type PulseStatus struct {
	// LastBeat is when the Pulse last beat.
	// +optional
	LastBeat metav1.Time `json:"lastBeat,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Pulse beats a period after its last beat.
type Pulse struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PulseSpec   `json:"spec,omitempty"`
	Status PulseStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Pulse) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Status.LastBeat.DeepCopyInto(&out.Status.LastBeat)
	return &out
}

// +kubebuilder:object:root=true

// Delay waits a fixed time after it was first seen.
type Delay struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PulseSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Delay) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// TickSpec defines the desired state of a Tick.
type TickSpec struct {
	// Schedule is the cron schedule the Tick fires on.
	Schedule string `json:"schedule"` // want "TickReconciler/trace:spec-field"
}

// +kubebuilder:object:root=true

// Tick fires on a cron schedule.
type Tick struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec TickSpec `json:"spec,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Tick) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

func init() {
	SchemeBuilder.Register(&Pulse{}, &Delay{}, &Tick{})
}
