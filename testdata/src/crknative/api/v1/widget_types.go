// Package v1 holds a kind whose status is a Knative duck status, its
// conditions kept by a condition set, reconciled by a controller-runtime
// reconciler.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"knative.dev/pkg/apis"
	duckv1 "knative.dev/pkg/apis/duck/v1"
)

// Widget is the primary object.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec   `json:"spec,omitempty"`
	Status            WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is what the user asks for.
type WidgetSpec struct {
	Replicas int32 `json:"replicas,omitempty"`
}

// WidgetStatus keeps its conditions in the duck status.
type WidgetStatus struct {
	duckv1.Status `json:",inline"`
}

// DeepCopyObject makes Widget a runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object {
	c := *w
	return &c
}

const (
	// WidgetDeployed says the Widget's child exists.
	WidgetDeployed apis.ConditionType = "Deployed" // want "condition-type:Deployed"
	// WidgetRouted says traffic reaches it.
	WidgetRouted apis.ConditionType = "Routed" // want "condition-type:Routed"
)

// widgetConditions is the Widget's condition set: Ready follows the two.
var widgetConditions = apis.NewLivingConditionSet(WidgetDeployed, WidgetRouted)

// InitializeConditions sets every condition of the set to Unknown.
func (s *WidgetStatus) InitializeConditions() {
	widgetConditions.Manage(s).InitializeConditions()
}

// MarkDeployed records that the child exists.
func (s *WidgetStatus) MarkDeployed() {
	widgetConditions.Manage(s).MarkTrue(WidgetDeployed) // want "condition-set:Deployed" "condition-type:Ready" "condition-set:Ready"
}

// SetCondition marks the condition of type t as c says.
func (s *WidgetStatus) SetCondition(t apis.ConditionType, c *apis.Condition) {
	if c.IsTrue() {
		widgetConditions.Manage(s).MarkTrue(t) // want "condition-set:Routed"
		return
	}
	widgetConditions.Manage(s).MarkFalse(t, c.Reason, "%s", c.Message)
}
