// Package v1 holds the Widget kind, whose status keeps metav1 conditions.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// WidgetReady is the Widget's one condition type.
const WidgetReady = "Ready"

// WidgetStatus is a Widget's observed state.
type WidgetStatus struct {
	Phase      string             `json:"phase,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Widget is the primary kind.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Widget.
func (in *Widget) DeepCopyObject() runtime.Object {
	out := &Widget{TypeMeta: in.TypeMeta, Status: in.Status}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return out
}

// DeepCopy copies the status.
func (in *WidgetStatus) DeepCopy() *WidgetStatus {
	out := *in
	out.Conditions = append([]metav1.Condition(nil), in.Conditions...)
	return &out
}
