package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// liveGetter is one own function read for the values it returns, with the
// primary kind whose Spec is desired state rather than live.
type liveGetter struct {
	fn   *ssa.Function
	kind *types.Named
}

// returnsLive reports whether a call hands back live state: it runs one
// function of the tree's, and a result of that function other than its
// error reads live state at one of its returns (current, err :=
// r.currentReplicas(ctx, obj), the function reading a child and returning
// its replica count). A getter that reads only the primary's Spec hands
// back desired state, as reading it in place would.
func (a *analysis) returnsLive(info *types.Info, ce *ast.CallExpr, kind *types.Named) bool {
	c := a.makeCall(info, ce, nil)
	if c.known || len(c.own) != 1 {
		return false
	}
	k := liveGetter{c.own[0], kind}
	if v, ok := a.liveGetters[k]; ok {
		return v
	}
	a.liveGetters[k] = false // a recursive getter reads nothing more
	b := body(k.fn)
	if b == nil {
		return false
	}
	binfo := a.infoAt(b.Pos())
	if binfo == nil {
		return false
	}
	live := false
	returnsOf(b, func(r *ast.ReturnStmt) {
		for _, res := range r.Results {
			if t := binfo.TypeOf(res); live || t == nil || isErrorType(t) || isNil(binfo, res) || isConst(binfo, res) {
				continue
			}
			live = a.readsLive(binfo, b, kind, res, nil, map[*types.Var]bool{})
		}
	})
	a.liveGetters[k] = live
	return live
}
