package locate

import (
	"go/token"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// instanceRows are the rows a generic wrapper's shared syntax can mislead:
// all but the entry and the re-read, which the wrapper itself makes.
var instanceRows = []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove, RowConditionTypes, RowRequeueError, RowRequeueSuccess}

// sharedInstanceCall finds, in an entry that is an instance of a generic
// reconciler (one wrapping a handler per kind), a call of its syntax that
// runs, in other instances, functions of other origins than it runs here:
// the row searches read calls by their syntax, which the instances share,
// so what they find through that call may be another instance's. It
// returns the call and the instance. (A generic helper on the path of a
// reconciler of its own is read with its caller's calls, and is not
// asked about.)
func (a *analysis) sharedInstanceCall(entry *ssa.Function) (Site, *ssa.Function, bool) {
	if entry == nil || entry.Origin() == nil {
		return Site{}, nil, false
	}
	for _, f := range withClosures(entry) {
		// The functions each call runs here, by their generic origin:
		// another instantiation of the same generic function is the
		// same code.
		mine := map[token.Pos]map[*ssa.Function]bool{}
		for _, e := range a.prog.CallsFrom(f) {
			if e.Site == nil {
				continue
			}
			pos := e.Site.Common().Pos()
			if mine[pos] == nil {
				mine[pos] = map[*ssa.Function]bool{}
			}
			mine[pos][originOf(e.Callee.Func)] = true
		}
		// In source order, so that the call named is the same on
		// every run.
		for _, pos := range slices.Sorted(maps.Keys(mine)) {
			for _, g := range a.callees[pos] {
				if !mine[pos][originOf(g)] {
					return a.site(pos), entry, true
				}
			}
		}
	}
	return Site{}, nil, false
}

// originOf is the generic function an instance instantiates, or fn.
func originOf(fn *ssa.Function) *ssa.Function {
	if o := fn.Origin(); o != nil {
		return o
	}
	return fn
}
