// Package guard holds a generic admission check that every reconciler
// runs on its own object first: an object that fails it is marked
// rejected, by the method of its own type, and its status written.
package guard

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Rejectable is an object that can record why it was rejected.
type Rejectable interface {
	client.Object
	MarkRejected(msg string)
}

// Guard checks objects of one type.
type Guard[T Rejectable] struct {
	// Validate says what is wrong with an object, if anything.
	Validate func(T) error
}

// Admit reports whether obj passes the check; one that does not is marked
// rejected and its status written.
func (g *Guard[T]) Admit(ctx context.Context, c client.Client, obj T) (bool, error) {
	if g == nil || g.Validate == nil {
		return true, nil
	}
	if err := g.Validate(obj); err != nil {
		obj.MarkRejected(err.Error())
		return false, c.Status().Update(ctx, obj)
	}
	return true, nil
}
