// Package v1 holds the Report API: a report published into a ConfigMap.
// +groupName=reports.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is the group and version of the Report API.
	GroupVersion = schema.GroupVersion{Group: "reports.example.com", Version: "v1"}

	// SchemeBuilder registers the Report type.
	SchemeBuilder = runtime.NewSchemeBuilder(func(s *runtime.Scheme) error {
		s.AddKnownTypes(GroupVersion, &Report{})
		metav1.AddToGroupVersion(s, GroupVersion)
		return nil
	})
)

// ReportSpec says whether the report is published.
type ReportSpec struct {
	Publish bool `json:"publish"`
}

// ReportStatus says whether it was.
type ReportStatus struct {
	Published bool `json:"published"`
}

// Report is published into a ConfigMap of its name.
type Report struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ReportSpec   `json:"spec,omitempty"`
	Status ReportStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (in *Report) DeepCopyObject() runtime.Object {
	out := new(Report)
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
