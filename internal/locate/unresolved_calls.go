package locate

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// unresolvedHanding lists the calls, in the tree's functions on the
// reconcile path, of a function value or a method of an interface the tree
// declares (ownDynamic) that the call graph resolves to nothing (a step kept in a slice the entry ranges over,
// filled where the graph does not see), that are handed the primary
// object: what they do to it is not read, so a search of the path for
// what is done to the object is not complete. Each is "file:line (caller
// calls expr)".
func (a *analysis) unresolvedHanding(fns []*ssa.Function, kind *types.Named) []string {
	if kind == nil {
		return nil
	}
	var out []string
	for _, fn := range fns {
		if !a.prog.Own[fn] {
			continue
		}
		resolved := map[ssa.CallInstruction]bool{}
		for _, e := range a.prog.CallsFrom(fn) {
			resolved[e.Site] = true
		}
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				ci, ok := in.(ssa.CallInstruction)
				if !ok || ci.Common().StaticCallee() != nil || resolved[ci] || !handsKind(ci.Common(), kind) || !a.ownDynamic(ci.Common()) {
					continue
				}
				s := a.site(ci.Pos())
				what := "a function value"
				if ce := a.callExprAt(fn, ci); ce != nil {
					what = a.exprText(ce.Fun)
				}
				out = append(out, fmt.Sprintf("%s:%d (%s calls %s)", s.File, s.Line, s.Func, what))
			}
		}
	}
	return out
}

// ownDynamic reports whether a dynamic call may run code of the tree's: a
// call of a function value, or of a method of an interface the tree
// declares by hand (not a generated client's, whose implementations the
// knowledge table reads by name).
func (a *analysis) ownDynamic(c *ssa.CallCommon) bool {
	if !c.IsInvoke() {
		return true
	}
	n, ok := types.Unalias(c.Value.Type()).(*types.Named)
	if !ok {
		return false
	}
	_, own := a.fileAt(n.Obj().Pos())
	return own && !a.generatedAt(n.Obj().Pos())
}

// handsKind reports whether a call is handed an object of kind (or a
// pointer to one).
func handsKind(c *ssa.CallCommon, kind *types.Named) bool {
	for _, v := range c.Args {
		t := v.Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Origin().Obj() == kind.Obj() {
			return true
		}
	}
	return false
}

// statusHoldsConditions reports whether the kind's status reaches a
// conditions list (holdsConditions): a kind whose status holds none sets
// no condition, whatever code runs.
func statusHoldsConditions(kind *types.Named) bool {
	st, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), "Status")
	f, ok := st.(*types.Var)
	return ok && holdsConditions(f.Type(), 0)
}
