// Package v1 holds the Share kind, which answers itself whether it is
// being deleted.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ShareSpec is a Share's desired state.
type ShareSpec struct {
	Path string `json:"path"`
}

// Share is a primary kind with a deletion predicate of its own.
type Share struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ShareSpec `json:"spec"`
}

// IsMarkedForDeletion reports whether the Share is being deleted.
func (s *Share) IsMarkedForDeletion() bool {
	return !s.DeletionTimestamp.IsZero()
}

// DeepCopyObject copies the Share.
func (s *Share) DeepCopyObject() runtime.Object {
	out := &Share{TypeMeta: s.TypeMeta, Spec: s.Spec}
	s.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}
