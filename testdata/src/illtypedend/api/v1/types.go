// Package v1 holds the Widget kind.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// WidgetSpec is what a Widget asks for.
type WidgetSpec struct {
	// Interval is how often the Widget is built again.
	Interval metav1.Duration `json:"interval"`
}

// WidgetStatus is a Widget's observed state.
type WidgetStatus struct {
	Digest     string             `json:"digest,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Widget is a kind whose controller's main work is in the middle of an
// edit.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Widget.
func (in *Widget) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// GadgetSpec is what a Gadget asks for.
type GadgetSpec struct {
	// Paused holds the Gadget back; it is looked at again after a while.
	Paused bool `json:"paused,omitempty"`
	// Interval is how often the Gadget is assembled again.
	Interval metav1.Duration `json:"interval"`
}

// GadgetStatus is a Gadget's observed state.
type GadgetStatus struct {
	Checksum string `json:"checksum,omitempty"`
}

// Gadget is a kind whose controller requeues early when paused, and
// otherwise hands back what its main work, in the middle of an edit,
// returns.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec   `json:"spec,omitempty"`
	Status            GadgetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Gadget.
func (in *Gadget) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
