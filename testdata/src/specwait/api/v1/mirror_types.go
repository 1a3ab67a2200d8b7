// Package v1 holds the Mirror API of the specwait fixture.
// +groupName=specwait.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion names the API group of Mirrors.
	GroupVersion = schema.GroupVersion{Group: "specwait.example.com", Version: "v1"}
	// SchemeBuilder registers the Mirror types.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}
)

// MirrorSpec names the ConfigMap a Mirror copies, and how often a Mirror
// in sync looks at it again.
type MirrorSpec struct {
	Source string `json:"source"`
	// RecheckMinutes is the user's resync period, in minutes.
	RecheckMinutes int32 `json:"recheckMinutes"` // want "trace:spec-field"
}

// MirrorStatus records the revision last copied.
type MirrorStatus struct {
	Copied string `json:"copied,omitempty"`
}

// Mirror copies a ConfigMap's data into a ConfigMap of its own name.
type Mirror struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   MirrorSpec   `json:"spec,omitempty"`
	Status MirrorStatus `json:"status,omitempty"`
}

// MirrorList is a list of Mirrors.
type MirrorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Mirror `json:"items"`
}

func init() {
	SchemeBuilder.Register(&Mirror{}, &MirrorList{})
}

// DeepCopyObject implements runtime.Object.
func (m *Mirror) DeepCopyObject() runtime.Object {
	out := *m
	m.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// DeepCopyObject implements runtime.Object.
func (l *MirrorList) DeepCopyObject() runtime.Object {
	out := *l
	out.Items = make([]Mirror, len(l.Items))
	for i := range l.Items {
		out.Items[i] = *l.Items[i].DeepCopyObject().(*Mirror)
	}
	return &out
}
