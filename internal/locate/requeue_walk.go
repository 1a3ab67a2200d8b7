package locate

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The walk of a reconciler's returns, from the entry through the functions
// whose results it hands back: what it has read, and under which scope.

// retWalk is one walk of a reconciler's returns: the primary type (what a
// condition testing the object alone reads), the weakest scope each
// function was walked under, and the returns that hand back the results of
// the function being walked.
type retWalk struct {
	kind *types.Named
	// shape is the type of the results walked and its fields.
	shape resultShape
	seen  map[*ssa.Function]scope
	via   []retHop
	// pair marks the next hop as a return of a call's tested pair.
	pair bool
	// stand is, while a result constructor's return is classified, the
	// return that calls it.
	stand *retStand
}

// newRetWalk starts a walk of the returns of a reconciler of kind.
func newRetWalk(kind *types.Named) *retWalk {
	return &retWalk{kind: kind, shape: crResult, seen: map[*ssa.Function]scope{}}
}

// walked names the functions the walk read.
func (w *retWalk) walked() map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	for fn := range w.seen {
		out[fn] = true
	}
	return out
}

// weaker reports whether scope s says less of a return than t: a function
// reached again under a weaker scope (a helper every return builds its
// result with, reached first from a failure path, then from the success
// path) is walked again, and its returns are classified under the weakest.
func weaker(s, t scope) bool {
	return s.guard < t.guard || s.guard == t.guard && !s.terminal && t.terminal
}

// lastWalk keeps, of the sites a walk classified at one place, the last:
// a function walked again is walked under a weaker scope.
func lastWalk(rets []retSite) []retSite {
	type key struct {
		pos         token.Pos
		split, half bool
	}
	last := map[key]int{}
	for i, r := range rets {
		last[key{r.at.Pos(), r.split, r.half}] = i
	}
	var out []retSite
	for i, r := range rets {
		if last[key{r.at.Pos(), r.split, r.half}] == i {
			out = append(out, r)
		}
	}
	return out
}
