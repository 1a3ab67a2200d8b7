// Package v1 holds the Thing kind.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ThingStatus is a Thing's observed state.
type ThingStatus struct {
	Summary    string             `json:"summary,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Thing is a kind whose controller is in the middle of an edit.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            ThingStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Thing.
func (in *Thing) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}
