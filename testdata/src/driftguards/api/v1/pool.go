package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// PoolSpec is what a Pool asks for: how many replicas its Deployment runs.
type PoolSpec struct {
	Replicas int32 `json:"replicas"`
}

// PoolStatus records the replicas the controller last asked for.
type PoolStatus struct {
	Replicas int32 `json:"replicas,omitempty"`
}

// Pool is a kind whose controller scales one Deployment, and scales it to
// zero before the Pool goes.
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PoolSpec   `json:"spec,omitempty"`
	Status            PoolStatus `json:"status,omitempty"`
}

// DeepCopyObject copies the Pool.
func (in *Pool) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
