// Package v1 holds two kinds that share a way of setting conditions: a
// Panel, the controller's own, and a Plate it reads.
package v1

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The condition types.
const (
	PanelReady   = "Ready"   // want "condition-type:Ready"
	PanelSynced  = "Synced"  // want "condition-type:Synced"
	PanelHealthy = "Healthy" // want "condition-type:Healthy"
	PanelSeen    = "Seen"    // want "condition-type:Seen"
	PanelApplied = "Applied" // want "condition-type:Applied"
	// PanelFine is a reason, not a type.
	PanelFine = "Fine"
	// PanelGone is set only on a Panel made on the spot for a deleted
	// one, which nothing writes.
	PanelGone = "Gone"
	// PanelStale is set by a function off the reconcile path, whose
	// closure alone the path may run.
	PanelStale = "Stale"
	// PlateComplete is the Plate's.
	PlateComplete = "Complete"
	// PanelLegacyReady and PanelLegacySynced are set only in the Panel's
	// legacy conditions, a list kept for an older API version apart from
	// Status.Conditions: not the Panel's status conditions.
	// PanelSummary is the type a summary is given by an option, which
	// ctrlcmp does not follow: the summary's type is not settled, and
	// PanelPartsReady, the type it has without the option, is no answer.
	PanelSummary      = "Summary"
	PanelPartsReady   = "PartsReady"
	PanelLegacyReady  = "LegacyReady"
	PanelLegacySynced = "LegacySynced"
)

// PanelStatus is a Panel's observed state.
type PanelStatus struct {
	Conditions []metav1.Condition     `json:"conditions,omitempty"`
	Deprecated *PanelDeprecatedStatus `json:"deprecated,omitempty"`
}

// PanelDeprecatedStatus holds what an older API version reported.
type PanelDeprecatedStatus struct {
	Legacy PanelLegacyStatus `json:"legacy"`
}

// PanelLegacyStatus holds the conditions of the older API version.
type PanelLegacyStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SetCondition sets one of the Panel's conditions.
func (s *PanelStatus) SetCondition(c metav1.Condition) { meta.SetStatusCondition(&s.Conditions, c) }

// Panel is the controller's kind.
type Panel struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            PanelStatus `json:"status,omitempty"`
}

// GetLegacyConditions returns the Panel's legacy conditions.
func (in *Panel) GetLegacyConditions() []metav1.Condition {
	if in.Status.Deprecated == nil {
		return nil
	}
	return in.Status.Deprecated.Legacy.Conditions
}

// SetLegacyConditions replaces the Panel's legacy conditions.
func (in *Panel) SetLegacyConditions(cs []metav1.Condition) {
	if in.Status.Deprecated == nil {
		in.Status.Deprecated = &PanelDeprecatedStatus{}
	}
	in.Status.Deprecated.Legacy.Conditions = cs
}

// DeepCopyObject copies the Panel.
func (in *Panel) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// PlateStatus is a Plate's observed state.
type PlateStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SetCondition sets one of the Plate's conditions.
func (s *PlateStatus) SetCondition(c metav1.Condition) { meta.SetStatusCondition(&s.Conditions, c) }

// Plate is another kind, with conditions of the same type.
type Plate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            PlateStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Plate.
func (in *Plate) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}
