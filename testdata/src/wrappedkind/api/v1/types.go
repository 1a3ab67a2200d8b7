// Package v1 holds two kinds: a Crate, whose status keeps conditions of
// its own struct and a list of actions shaped like them, and a Shelf.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ConditionType names a Crate's condition.
type ConditionType string

// The condition types.
const (
	CratePacked ConditionType = "Packed" // want "CrateReconciler/condition-type:Packed"
	CrateReady  ConditionType = "Ready"  // want "CrateReconciler/condition-type:Ready"
)

// ActionType names an action the controller took on a Crate: an entry of
// its status's action list, shaped like a condition, never one.
type ActionType string

// The action types.
const (
	ActionPack  ActionType = "Pack"
	ActionLabel ActionType = "Label"
)

// CrateCondition is one of a Crate's conditions.
type CrateCondition struct {
	Type               ConditionType          `json:"type"`
	Status             metav1.ConditionStatus `json:"status"`
	LastTransitionTime metav1.Time            `json:"lastTransitionTime"`
}

// CrateAction records an action the controller took.
type CrateAction struct {
	Type   ActionType `json:"type"`
	Status string     `json:"status"`
}

// CrateStatus is a Crate's observed state.
type CrateStatus struct {
	Conditions []CrateCondition `json:"conditions,omitempty"`
	Actions    []CrateAction    `json:"actions,omitempty"`
}

// Crate is the CrateReconciler's kind.
type Crate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            CrateStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Crate.
func (in *Crate) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]CrateCondition(nil), in.Status.Conditions...)
	out.Status.Actions = append([]CrateAction(nil), in.Status.Actions...)
	return &out
}

// Shelf is the ShelfReconciler's kind.
type Shelf struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// DeepCopyObject copies the Shelf.
func (in *Shelf) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
