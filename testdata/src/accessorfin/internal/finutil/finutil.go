// Package finutil keeps finalizers on any object through its metadata
// accessor.
package finutil

import (
	"context"
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Ensure puts the named finalizer on obj and stores it; it says whether
// the object was written.
func Ensure(ctx context.Context, c client.Client, obj client.Object, name string) (bool, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false, err
	}
	for _, f := range m.GetFinalizers() {
		if f == name {
			return false, nil
		}
	}
	m.SetFinalizers(append(m.GetFinalizers(), name)) // want "finalizer-add"
	return true, c.Update(ctx, obj)
}

// Release drops the named finalizer from obj and stores it.
func Release(ctx context.Context, c client.Client, obj client.Object, name string) error {
	m, err := meta.Accessor(obj)
	if err != nil {
		return err
	}
	names := m.GetFinalizers()
	i := slices.Index(names, name)
	if i < 0 {
		return nil
	}
	m.SetFinalizers(slices.Delete(slices.Clone(names), i, i+1)) // want "finalizer-remove"
	return c.Update(ctx, obj)
}
