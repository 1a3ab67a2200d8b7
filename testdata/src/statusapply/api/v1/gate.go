// Package v1 holds the Gate kind, whose conditions its controller sends
// in a status patch of their own.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ConditionType names a Gate's condition.
type ConditionType string

// GateReady is the Gate's one condition type.
const GateReady ConditionType = "Ready"

// Condition is one of a Gate's conditions.
type Condition struct {
	Type               ConditionType `json:"type"`
	Status             string        `json:"status"`
	Reason             string        `json:"reason,omitempty"`
	LastTransitionTime metav1.Time   `json:"lastTransitionTime,omitempty"`
}

// GateStatus is a Gate's observed state.
type GateStatus struct {
	Conditions []Condition `json:"conditions,omitempty"`
}

// Gate is the controller's kind.
type Gate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            GateStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Gate.
func (in *Gate) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]Condition(nil), in.Status.Conditions...)
	return &out
}
