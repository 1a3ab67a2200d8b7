// Package v1 holds the Widget kind, whose status keeps metav1 conditions.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The Widget's condition types. Ready is computed by another controller;
// the WidgetReconciler keeps it as it finds it.
const (
	WidgetReady   = "Ready"
	WidgetSynced  = "Synced"  // want "WidgetReconciler/condition-type:Synced"
	WidgetHealthy = "Healthy" // want "WidgetReconciler/condition-type:Healthy" "GaugeReconciler/condition-type:Healthy"
)

// WidgetStatus is a Widget's observed state.
type WidgetStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Widget is the primary kind.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Widget.
func (in *Widget) DeepCopyObject() runtime.Object {
	out := &Widget{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return out
}
