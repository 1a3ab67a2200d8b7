// Package v1 holds the Beacon API: a kind checked once per change, whose
// status carries conditions managed through a batch condition set.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	duckv1 "knative.dev/pkg/apis/duck/v1"
)

// Beacon checks a threshold.
type Beacon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BeaconSpec   `json:"spec,omitempty"`
	Status BeaconStatus `json:"status,omitempty"`
}

// BeaconSpec is what the user asks for.
type BeaconSpec struct {
	// Limit is the highest value accepted.
	Limit int64 `json:"limit"`
	// Value is the value checked.
	Value int64 `json:"value"`
}

// BeaconStatus is what the controller observed.
type BeaconStatus struct {
	duckv1.Status `json:",inline"`
}

// DeepCopyObject makes Beacon a runtime.Object.
func (g *Beacon) DeepCopyObject() runtime.Object { return g.DeepCopy() }
