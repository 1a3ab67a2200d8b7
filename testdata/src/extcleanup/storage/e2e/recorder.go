// Package e2e holds a Buckets that an end-to-end suite registers to see
// what the controller asks for.
package e2e

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// Recorder records the buckets the controller deletes.
type Recorder struct {
	Deleted []string
}

// Exists reports every bucket there until deleted.
func (r *Recorder) Exists(_ context.Context, cm *corev1.ConfigMap) (bool, error) {
	for _, d := range r.Deleted {
		if d == cm.Name {
			return false, nil
		}
	}
	return true, nil
}

// Delete records the bucket as deleted.
func (r *Recorder) Delete(_ context.Context, cm *corev1.ConfigMap) error {
	r.Deleted = append(r.Deleted, cm.Name)
	return nil
}
