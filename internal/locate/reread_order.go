package locate

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// readPlace orders the reads by the key: rank is the reach order of the
// function whose code the read stands in, at its position there; run is
// the call, in the code the read is placed in, of a creator whose
// returned closure makes the read.
type readPlace struct {
	rank int
	at   token.Pos
	run  *callgraph.Edge
}

// placeOfRead is where a read at pos in fn stands. A closure's read stands
// in its creator's code, where the literal is (a read wrapped in a function
// literal called at once, or assigned and called, keeps its place); a
// closure its creator returns is run by the creator's caller, so its read
// stands at the call of the creator (`r.getThing(ctx, key)()`).
func (a *analysis) placeOfRead(fns []*ssa.Function, reach *callgraph.Reach, fn *ssa.Function, pos token.Pos) readPlace {
	var run *callgraph.Edge
	for fn.Parent() != nil {
		maker := fn.Parent()
		if path := reach.Path(maker); len(path) > 0 && returnsClosure(maker, fn) {
			call := path[len(path)-1]
			fn, pos, run = call.Caller.Func, call.Site.Pos(), call
			continue
		}
		fn = maker
	}
	return readPlace{rank: slices.Index(fns, fn), at: pos, run: run}
}

// returnsClosure reports whether maker returns the closure c (made with its
// free variables, or converted to a named function type).
func returnsClosure(maker, c *ssa.Function) bool {
	for _, b := range maker.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for _, v := range ret.Results {
			if closureValue(v) == c {
				return true
			}
		}
	}
	return false
}

// closureValue is the function a value holds, seen through the closure
// that binds its free variables and through conversions.
func closureValue(v ssa.Value) *ssa.Function {
	for {
		switch x := v.(type) {
		case *ssa.MakeClosure:
			fn, _ := x.Fn.(*ssa.Function)
			return fn
		case *ssa.Function:
			return x
		case *ssa.ChangeType:
			v = x.X
		case *ssa.Convert:
			v = x.X
		default:
			return nil
		}
	}
}
