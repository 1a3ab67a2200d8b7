// Package v1 holds two kinds that a generic guard rejects in their own
// way: a Gauge records the rejection as a condition, a Dial in a field.
package v1

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The condition types.
const (
	GaugeReady    = "Ready"    // want "GaugeReconciler/condition-type:Ready"
	GaugeRejected = "Rejected" // want "GaugeReconciler/condition-type:Rejected"
	DialOnline    = "Online"   // want "DialReconciler/condition-type:Online"
)

// GaugeStatus is a Gauge's observed state.
type GaugeStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Gauge is one kind: a rejection is a condition.
type Gauge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            GaugeStatus `json:"status,omitempty"`
}

// MarkRejected records why the Gauge was rejected.
func (g *Gauge) MarkRejected(msg string) {
	meta.SetStatusCondition(&g.Status.Conditions, metav1.Condition{Type: GaugeRejected, Status: metav1.ConditionTrue, Reason: "Invalid", Message: msg}) // want "GaugeReconciler/condition-set:Rejected"
}

// DeepCopyObject copies the Gauge.
func (in *Gauge) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}

// DialStatus is a Dial's observed state.
type DialStatus struct {
	// Error is why the Dial was rejected.
	Error      string             `json:"error,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Dial is another kind: a rejection is a message, not a condition.
type Dial struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            DialStatus `json:"status,omitempty"`
}

// MarkRejected records why the Dial was rejected.
func (d *Dial) MarkRejected(msg string) {
	d.Status.Error = msg
}

// DeepCopyObject copies the Dial.
func (in *Dial) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	out.Status.Conditions = append([]metav1.Condition(nil), in.Status.Conditions...)
	return &out
}
