// Package v1 holds two kinds whose conditions the controllers set through
// helpers: a Widget with metav1.Condition, a Gadget with a condition
// struct of its own (embedding a state shared between kinds).
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The Widget's condition types.
const (
	WidgetReady    = "Ready"    // want "WidgetReconciler/condition-type:Ready" "GizmoReconciler/condition-type:Ready" "TallyReconciler/condition-type:Ready"
	WidgetDegraded = "Degraded" // want "WidgetReconciler/condition-type:Degraded" "TallyReconciler/condition-type:Degraded"
	WidgetSynced   = "Synced"   // want "WidgetReconciler/condition-type:Synced" "GizmoReconciler/condition-type:Synced" "TallyReconciler/condition-type:Synced"
	// WidgetDeploying is a reason, not a type.
	WidgetDeploying = "Deploying"
)

// WidgetStatus is a Widget's observed state.
type WidgetStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Widget is a kind whose conditions are metav1.Conditions.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// GetConditions returns the Widget's conditions.
func (in *Widget) GetConditions() []metav1.Condition { return in.Status.Conditions }

// SetConditions replaces the Widget's conditions.
func (in *Widget) SetConditions(c []metav1.Condition) { in.Status.Conditions = c }

// DeepCopyObject copies the Widget.
func (in *Widget) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// GadgetConditionType names a Gadget condition.
type GadgetConditionType string

// The Gadget's condition types.
const (
	GadgetAvailable GadgetConditionType = "Available" // want "GadgetReconciler/condition-type:Available" "GadgetMergeReconciler/condition-type:Available" "GadgetWrapReconciler/condition-type:Available"
	GadgetSynced    GadgetConditionType = "Synced"    // want "GadgetReconciler/condition-type:Synced" "GadgetMergeReconciler/condition-type:Synced"
)

// ConditionState is what a condition of any kind of this package holds
// beside its type.
type ConditionState struct {
	Status metav1.ConditionStatus `json:"status"`
	Reason string                 `json:"reason,omitempty"`
}

// GadgetCondition is a condition of the Gadget's own making: its type, and
// the state it shares with other kinds' conditions, embedded.
type GadgetCondition struct {
	Type           GadgetConditionType `json:"type"`
	ConditionState `json:",inline"`
}

// GadgetStatus is a Gadget's observed state.
type GadgetStatus struct {
	Conditions []GadgetCondition `json:"conditions,omitempty"`
}

// Gadget is a kind with conditions of its own type.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            *GadgetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Gadget.
func (in *Gadget) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Status != nil {
		st := GadgetStatus{Conditions: append([]GadgetCondition(nil), in.Status.Conditions...)}
		out.Status = &st
	}
	return &out
}

// SharedStatus is the part of a status that several kinds embed: their
// conditions among it.
type SharedStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// DoohickeyStatus is a Doohickey's observed state.
type DoohickeyStatus struct {
	SharedStatus `json:",inline"`
}

// Doohickey is a kind whose conditions live in a status it shares with
// other kinds.
type Doohickey struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            DoohickeyStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Doohickey.
func (in *Doohickey) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// ReplicaStatus is a Replica's observed state: the conditions of the
// Widget it replicates, copied.
type ReplicaStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Replica mirrors the status of a Widget of the same name.
type Replica struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            ReplicaStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Replica.
func (in *Replica) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}
