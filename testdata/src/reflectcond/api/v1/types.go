// Package v1 holds the Widget kind, whose status keeps metav1 conditions.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// WidgetStatus is a Widget's observed state.
type WidgetStatus struct {
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
	out := &Widget{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return out
}

// GaugeStatus is a Gauge's observed state: a reading and when it was
// taken, no conditions.
type GaugeStatus struct {
	Reading  int32       `json:"reading,omitempty"`
	LastRead metav1.Time `json:"lastRead,omitempty"`
}

// Gauge is a kind whose status holds no conditions.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            GaugeStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Gauge.
func (in *Gauge) DeepCopyObject() runtime.Object {
	out := &Gauge{TypeMeta: in.TypeMeta, Status: in.Status}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
