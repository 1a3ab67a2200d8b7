package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TickerSpec defines the desired state of a Ticker.
type TickerSpec struct {
	// PeriodSeconds is how often the Ticker ticks, in seconds.
	PeriodSeconds int64 `json:"periodSeconds"` // want "PollReconciler/trace:spec-field" "ScheduleReconciler/trace:spec-field"
	// Suspend stops the Ticker's reconciliation.
	// +optional
	Suspend bool `json:"suspend,omitempty"`
}

// TickerStatus defines the observed state of a Ticker.
type TickerStatus struct {
	// LastTick is when the Ticker last ticked.
	// +optional
	LastTick metav1.Time `json:"lastTick,omitempty"`
	// NextTick is when the Ticker ticks next.
	// +optional
	NextTick metav1.Time `json:"nextTick,omitempty"`
	// Phase is where the Ticker's one-off handling stands.
	// +optional
	Phase TickerPhase `json:"phase,omitempty"`
}

// TickerPhase is a stage of a Ticker's one-off handling.
type TickerPhase string

// The phases a Ticker goes through.
const (
	PhaseNew       TickerPhase = "New"
	PhaseScheduled TickerPhase = "Scheduled"
	PhaseDone      TickerPhase = "Done"
	PhaseFailed    TickerPhase = "Failed"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Ticker ticks on a period its spec gives in seconds.
type Ticker struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   TickerSpec   `json:"spec,omitempty"`
	Status TickerStatus `json:"status,omitempty"`
}

// +kubebuilder:object:root=true

// TickerList contains a list of Ticker.
type TickerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Ticker `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Ticker{}, &TickerList{})
}

// DeepCopyInto copies the receiver into out.
func (in *Ticker) DeepCopyInto(out *Ticker) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Status.LastTick.DeepCopyInto(&out.Status.LastTick)
	in.Status.NextTick.DeepCopyInto(&out.Status.NextTick)
}

// DeepCopy returns a deep copy of the Ticker.
func (in *Ticker) DeepCopy() *Ticker {
	if in == nil {
		return nil
	}
	out := new(Ticker)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Ticker) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// DeepCopyInto copies the receiver into out.
func (in *TickerList) DeepCopyInto(out *TickerList) {
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Ticker, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy of the TickerList.
func (in *TickerList) DeepCopy() *TickerList {
	if in == nil {
		return nil
	}
	out := new(TickerList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *TickerList) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}
