// Package patch is a library's patch helper (a fixture's dependency, not
// a fixture): it remembers an object as read and, handed it back, patches
// what changed; and a stamp that always updates the object it is handed.
package patch

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Helper patches an object against the copy it took when made.
type Helper struct {
	client client.Client
	before client.Object
}

// NewHelper remembers obj as it is now.
func NewHelper(obj client.Object, c client.Client) *Helper {
	return &Helper{client: c, before: obj.DeepCopyObject().(client.Object)}
}

// Patch sends the difference between obj and the copy, when there is one.
func (h *Helper) Patch(ctx context.Context, obj client.Object) error {
	return h.patch(ctx, obj)
}

func (h *Helper) patch(ctx context.Context, obj client.Object) error {
	p := client.MergeFrom(h.before)
	data, err := p.Data(obj)
	if err != nil {
		return err
	}
	if string(data) == "{}" {
		return nil
	}
	return h.client.Patch(ctx, obj, p)
}

// Stamp updates obj as it is.
func Stamp(ctx context.Context, c client.Client, obj client.Object) error {
	return c.Update(ctx, obj)
}
