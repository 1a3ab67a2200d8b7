// Package v1 holds two kinds whose finalizers a defaulting webhook adds,
// not their reconcilers: a Tag, whose webhook adds the current finalizer,
// and a Badge, whose finalizer nothing in the tree adds.
package v1

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// The finalizers: the one of before, which older versions added, and the
// current one.
const (
	LegacyFinalizer  = "offpath.example.com"
	CurrentFinalizer = "offpath.example.com/finalizer" // want "TagReconciler/finalizer-const"
)

// Tag is the TagReconciler's kind.
type Tag struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// DeepCopyObject copies the Tag.
func (in *Tag) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

// TagDefaulter is the Tag's defaulting webhook: the API server persists
// what it sets.
type TagDefaulter struct{}

// Default adds the current finalizer to a Tag not being deleted.
func (TagDefaulter) Default(_ context.Context, tag *Tag) error {
	if tag.DeletionTimestamp == nil {
		controllerutil.AddFinalizer(tag, CurrentFinalizer) // want "TagReconciler/finalizer-add"
	}
	return nil
}

// Badge is the BadgeReconciler's kind.
type Badge struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// DeepCopyObject copies the Badge.
func (in *Badge) DeepCopyObject() runtime.Object {
	out := *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}
