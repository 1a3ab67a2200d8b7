// Package v1 holds the Gizmo API, group gizmos.example.com, version v1.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ConditionReady says the Gizmo has been seen through.
const ConditionReady = "Ready" // want "condition-type:Ready"

// Gizmo is a thing the controller marks ready.
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GizmoSpec   `json:"spec"`
	Status GizmoStatus `json:"status,omitempty"`
}

// GizmoSpec is the desired state of a Gizmo.
type GizmoSpec struct {
	Size int32 `json:"size"`
}

// GizmoStatus is the observed state of a Gizmo.
type GizmoStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// GizmoList is a list of Gizmos.
type GizmoList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Gizmo `json:"items"`
}

// DeepCopyInto copies the receiver into out.
func (in *Gizmo) DeepCopyInto(out *Gizmo) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Status.Conditions != nil {
		out.Status.Conditions = make([]metav1.Condition, len(in.Status.Conditions))
		for i := range in.Status.Conditions {
			in.Status.Conditions[i].DeepCopyInto(&out.Status.Conditions[i])
		}
	}
}

// DeepCopy returns a deep copy of the Gizmo.
func (in *Gizmo) DeepCopy() *Gizmo {
	if in == nil {
		return nil
	}
	out := new(Gizmo)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Gizmo) DeepCopyObject() runtime.Object { return in.DeepCopy() }

// DeepCopyObject implements runtime.Object.
func (in *GizmoList) DeepCopyObject() runtime.Object {
	out := new(GizmoList)
	*out = *in
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Gizmo, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
	return out
}
