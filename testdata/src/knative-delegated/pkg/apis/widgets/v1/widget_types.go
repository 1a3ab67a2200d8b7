// Package v1 holds the Widget API: a kind whose status carries conditions
// managed through a condition set.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	duckv1 "knative.dev/pkg/apis/duck/v1"
)

// Widget probes a source on an interval.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what the user asks for.
type WidgetSpec struct {
	// Source is the address probed.
	Source string `json:"source"`
	// Interval is how long to wait between two probes.
	Interval metav1.Duration `json:"interval"`
}

// WidgetStatus is what the controller observed.
type WidgetStatus struct {
	duckv1.Status `json:",inline"`
}

// DeepCopyObject makes Widget a runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object { return w.DeepCopy() }
