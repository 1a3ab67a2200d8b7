// Package ctrl hands the tree's own type to the dependency.
package ctrl

import (
	"example.com/ownunder/api"
	"example.com/ownunderlib"
)

// Ready reports whether w is ready, through the dependency.
func Ready(w *api.Widget) bool { return lib.IsReady(w) }
