// Package v1 holds four kinds whose controllers set conditions through
// value flows the reconcile does not spell out at the setter: a list a
// helper ranges over, a tuple result of another package, a separate
// status value sent by server-side apply, and an options struct.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The condition types of each kind.
const (
	AlphaReady       = "Ready"       // want "AlphaReconciler/condition-type:Ready"
	AlphaProgressing = "Progressing" // want "AlphaReconciler/condition-type:Progressing"
	// AlphaExported is built but never stored on the Alpha.
	AlphaExported = "Exported"

	BetaReady     = "Ready"     // want "BetaReconciler/condition-type:Ready"
	BetaScheduled = "Scheduled" // want "BetaReconciler/condition-type:Scheduled"
	// BetaPreview is returned by a helper whose list is only logged.
	BetaPreview = "Preview"

	GammaApplied = "Applied" // want "GammaReconciler/condition-type:Applied"
	// GammaDraft is set on a status value that is never sent.
	GammaDraft = "Draft"

	DeltaReady    = "Ready"    // want "DeltaReconciler/condition-type:Ready"
	DeltaDegraded = "Degraded" // want "DeltaReconciler/condition-type:Degraded"
	// DeltaArchived is carried by options no setter is handed.
	DeltaArchived = "Archived"
)

// Status is the observed state every kind here shares.
type Status struct {
	Phase      string             `json:"phase,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Alpha is a kind whose conditions a helper applies from a list.
type Alpha struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            Status `json:"status,omitempty"`
}

// DeepCopyObject copies the Alpha.
func (in *Alpha) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// Beta is a kind whose conditions come back from another package.
type Beta struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            Status `json:"status,omitempty"`
}

// DeepCopy copies the Beta.
func (in *Beta) DeepCopy() *Beta {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// DeepCopyObject copies the Beta.
func (in *Beta) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// Gamma is a kind whose status is sent by server-side apply.
type Gamma struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            Status `json:"status,omitempty"`
}

// DeepCopyObject copies the Gamma.
func (in *Gamma) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// Delta is a kind whose condition types travel in options.
type Delta struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            Status `json:"status,omitempty"`
}

// DeepCopyObject copies the Delta.
func (in *Delta) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}
