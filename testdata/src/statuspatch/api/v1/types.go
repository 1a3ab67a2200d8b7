// Package v1 holds the Gadget kind, whose status keeps metav1 conditions.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The Gadget's condition types.
const (
	GadgetReady   = "Ready"   // want "GadgetReconciler/condition-type:Ready" "SummaryReconciler/condition-type:Ready" "MeteredReconciler/condition-type:Ready"
	GadgetStalled = "Stalled" // want "GadgetReconciler/condition-type:Stalled" "SummaryReconciler/condition-type:Stalled"
)

// GadgetSpec is a Gadget's desired state.
type GadgetSpec struct {
	Size int `json:"size"`
}

// GadgetStatus is a Gadget's observed state.
type GadgetStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Gadget is the primary kind.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              GadgetSpec   `json:"spec"`
	Status            GadgetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Gadget.
func (in *Gadget) DeepCopyObject() runtime.Object {
	out := &Gadget{TypeMeta: in.TypeMeta, Spec: in.Spec}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return out
}
