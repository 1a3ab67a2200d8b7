package locate

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// instanceRows are the rows a generic wrapper's shared syntax can mislead:
// all but the entry and the re-read, which the wrapper itself makes.
var instanceRows = []string{RowFinalizerConst, RowFinalizerAdd, RowFinalizerCleanup, RowFinalizerRemove, RowConditionTypes, RowRequeueError, RowRequeueSuccess}

// sharedInstanceCall finds, on a reconcile path that runs an instance of a
// generic function (a generic reconciler wrapping one implementation per
// kind), a call of that function's syntax that runs, in other instances,
// functions of the tree this path does not reach: the row searches read
// calls by their syntax, which the instances share, so what they find
// through that call may be another instance's. It returns the call and
// the instance.
func (a *analysis) sharedInstanceCall(reach *callgraph.Reach) (Site, *ssa.Function, bool) {
	for _, f := range reach.Funcs() {
		if f.Origin() == nil {
			continue
		}
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
		for pos, callees := range mine {
			for _, g := range a.callees[pos] {
				if !callees[originOf(g)] && !reach.Has(g) {
					return a.site(pos), f, true
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
