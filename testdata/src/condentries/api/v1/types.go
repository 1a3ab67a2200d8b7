// Package v1 holds the Fleet kind: its status keeps the Fleet's own
// conditions and, for each member, an entry with conditions of its own,
// in a list of the same type.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The condition types.
const (
	FleetReady  = "Ready"  // want "condition-type:Ready"
	FleetSynced = "Synced" // want "condition-type:Synced"
	// MemberJoined and MemberDraining are set only on a member's entry,
	// never on the Fleet's own conditions.
	MemberJoined   = "Joined"
	MemberDraining = "Draining"
	MemberLagging  = "Lagging"
	MemberPinned   = "Pinned"
	MemberSeen     = "Seen"
	MemberFirst    = "First"
)

// Condition is one condition of the project's own shape.
type Condition struct {
	Type   string                 `json:"type"`
	Status metav1.ConditionStatus `json:"status"`
	Reason string                 `json:"reason,omitempty"`
}

// ConditionList keeps one condition per type.
type ConditionList []Condition

// Set replaces the condition of c's type, or adds c.
func (l *ConditionList) Set(c Condition) {
	for i := range *l {
		if (*l)[i].Type == c.Type {
			(*l)[i] = c
			return
		}
	}
	*l = append(*l, c)
}

// MemberStatus is what the Fleet reports about one member.
type MemberStatus struct {
	Name       string        `json:"name"`
	Conditions ConditionList `json:"conditions,omitempty"`
}

// FleetStatus is a Fleet's observed state.
type FleetStatus struct {
	Conditions ConditionList   `json:"conditions,omitempty"`
	Members    []*MemberStatus `json:"members,omitempty"`
}

// Member is the entry of the named member, added when there is none.
func (s *FleetStatus) Member(name string) *MemberStatus {
	for _, m := range s.Members {
		if m.Name == name {
			return m
		}
	}
	m := &MemberStatus{Name: name}
	s.Members = append(s.Members, m)
	return m
}

// Entries is the members' entries.
func (s *FleetStatus) Entries() []*MemberStatus { return s.Members }

// Own is the Fleet's own conditions.
func (s *FleetStatus) Own() *ConditionList { return &s.Conditions }

// FleetSpec names the members.
type FleetSpec struct {
	Members []string `json:"members"`
}

// Fleet is the controller's kind.
type Fleet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              FleetSpec   `json:"spec"`
	Status            FleetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Fleet.
func (in *Fleet) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Spec.Members = append([]string(nil), in.Spec.Members...)
	out.Status.Conditions = append(ConditionList(nil), in.Status.Conditions...)
	out.Status.Members = nil
	for _, m := range in.Status.Members {
		c := *m
		c.Conditions = append(ConditionList(nil), m.Conditions...)
		out.Status.Members = append(out.Status.Members, &c)
	}
	return &out
}
