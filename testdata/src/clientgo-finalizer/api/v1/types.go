// Package v1 holds the Widget API, group widgets.example.com, version v1.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of Widgets.
const GroupName = "widgets.example.com"

// SchemeGroupVersion is the group/version used to register Widgets.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1"}

// Resource is the GroupVersionResource of Widgets.
var Resource = SchemeGroupVersion.WithResource("widgets")

// WidgetFinalizer guards the Secret-backed state of a Widget until it is cleaned up.
const WidgetFinalizer = "widgets.example.com/cleanup" // want "finalizer-const"

// Condition types reported on Widget.Status.Conditions.
const (
	ConditionReady    = "Ready"    // want "condition-type:Ready"
	ConditionDegraded = "Degraded" // want "condition-type:Degraded"
)

// Condition reasons.
const (
	ReasonSynced        = "Synced" // decoy: condition-types (a reason, not a type)
	ReasonSecretMissing = "SecretMissing"
)

// Widget renders the content of a Secret into its status.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired state of a Widget.
type WidgetSpec struct {
	// SecretName names a Secret in the Widget's namespace.
	SecretName string `json:"secretName"`
	// Replicas is informational only.
	Replicas *int32 `json:"replicas,omitempty"`
}

// WidgetStatus is the observed state of a Widget.
type WidgetStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	KeyCount           int                `json:"keyCount,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// WidgetList is a list of Widgets.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []Widget `json:"items"`
}

// DeepCopyInto copies the receiver into out.
func (in *Widget) DeepCopyInto(out *Widget) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.Replicas != nil {
		r := *in.Spec.Replicas
		out.Spec.Replicas = &r
	}
	if in.Status.Conditions != nil {
		out.Status.Conditions = make([]metav1.Condition, len(in.Status.Conditions))
		for i := range in.Status.Conditions {
			in.Status.Conditions[i].DeepCopyInto(&out.Status.Conditions[i])
		}
	}
}

// DeepCopy returns a deep copy of the Widget.
func (in *Widget) DeepCopy() *Widget {
	if in == nil {
		return nil
	}
	out := new(Widget)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *Widget) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// DeepCopyInto copies the receiver into out.
func (in *WidgetList) DeepCopyInto(out *WidgetList) {
	*out = *in
	out.TypeMeta = in.TypeMeta
	in.ListMeta.DeepCopyInto(&out.ListMeta)
	if in.Items != nil {
		out.Items = make([]Widget, len(in.Items))
		for i := range in.Items {
			in.Items[i].DeepCopyInto(&out.Items[i])
		}
	}
}

// DeepCopy returns a deep copy of the WidgetList.
func (in *WidgetList) DeepCopy() *WidgetList {
	if in == nil {
		return nil
	}
	out := new(WidgetList)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject implements runtime.Object.
func (in *WidgetList) DeepCopyObject() runtime.Object {
	return in.DeepCopy()
}

// SchemeBuilder collects the functions that register the Widget types.
var SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

// AddToScheme registers Widget and WidgetList.
var AddToScheme = SchemeBuilder.AddToScheme

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Widget{}, &WidgetList{})
	metav1.AddToGroupVersion(s, SchemeGroupVersion)
	return nil
}
