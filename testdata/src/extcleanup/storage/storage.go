// Package storage names the bucket service a controller drives; the
// program is handed an implementation at run time.
package storage

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// Buckets creates and deletes the bucket behind a ConfigMap.
type Buckets interface {
	// Exists reports whether the ConfigMap's bucket is there.
	Exists(ctx context.Context, cm *corev1.ConfigMap) (bool, error)
	// Delete removes the ConfigMap's bucket.
	Delete(ctx context.Context, cm *corev1.ConfigMap) error
}
