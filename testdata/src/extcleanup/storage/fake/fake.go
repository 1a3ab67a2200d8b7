// Package fake holds an in-memory Buckets for tests and local runs.
package fake

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// Buckets remembers which buckets exist.
type Buckets struct {
	Names map[string]bool
}

// Exists reports whether the bucket is remembered.
func (b *Buckets) Exists(_ context.Context, cm *corev1.ConfigMap) (bool, error) {
	return b.Names[cm.Name], nil
}

// Delete forgets the bucket.
func (b *Buckets) Delete(_ context.Context, cm *corev1.ConfigMap) error {
	delete(b.Names, cm.Name)
	return nil
}
