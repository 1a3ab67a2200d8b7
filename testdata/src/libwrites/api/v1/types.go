// Package v1 holds the Tally kind.
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// TallyStatus is what a Tally's controller counted.
type TallyStatus struct {
	// Count is how many ConfigMaps the Tally's namespace holds.
	Count int `json:"count,omitempty"`
}

// Tally is a kind whose controller counts the ConfigMaps of its namespace.
type Tally struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            TallyStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Tally.
func (in *Tally) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
