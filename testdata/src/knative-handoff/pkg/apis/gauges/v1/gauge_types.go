// Package v1 holds the Gauge API: a kind checked once per change, whose
// status carries conditions managed through a batch condition set.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	duckv1 "knative.dev/pkg/apis/duck/v1"
)

// Gauge checks a threshold.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GaugeSpec   `json:"spec,omitempty"`
	Status GaugeStatus `json:"status,omitempty"`
}

// GaugeSpec is what the user asks for.
type GaugeSpec struct {
	// Limit is the highest value accepted.
	Limit int64 `json:"limit"`
	// Value is the value checked.
	Value int64 `json:"value"`
}

// GaugeStatus is what the controller observed.
type GaugeStatus struct {
	duckv1.Status `json:",inline"`
}

// DeepCopyObject makes Gauge a runtime.Object.
func (g *Gauge) DeepCopyObject() runtime.Object { return g.DeepCopy() }
