package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A finalizer list changed through an interface value (a metav1.Object
// asserted from a runtime.Object, a client.Object parameter) may be the
// primary object's or another's. The value-flow engine follows the value
// back: to the expressions that make it, out of type assertions, and from
// a parameter to what the calls on the reconcile path hand it. When every
// value it may hold is settled to an expression of a concrete type other
// than the primary's (a ControllerRevision's data built from an instance
// type), the change is another object's and is not cited; a value of the
// primary type, or a trail that ends, leaves it the primary's, as before.

// maxHolderCallers bounds how many callers up a holder is followed.
const maxHolderCallers = 4

// holdsOtherKind reports whether the interface value holder, in fn, is
// proven to hold no object of the primary type.
func (a *analysis) holdsOtherKind(fns []*ssa.Function, fn *ssa.Function, holder ast.Expr, kind *types.Named) bool {
	b := a.flowBodyOf(fn)
	if b == nil {
		return false
	}
	if _, lit := fn.Syntax().(*ast.FuncLit); lit {
		if cb := a.closureBody(fn); cb != nil {
			b = cb
		}
	}
	fl := &flowEngine{a: a}
	return a.otherKindValues(fl, fns, outermost(fn), b, holder, kind, 0)
}

// otherKindValues is holdsOtherKind for an expression e of body b, the
// body of fn, depth callers up.
func (a *analysis) otherKindValues(fl *flowEngine, fns []*ssa.Function, fn *ssa.Function, b *flowBody, e ast.Expr, kind *types.Named, depth int) bool {
	vals := fl.values(b, e)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		switch {
		case v.zero:
			continue // nil: no object
		case v.b == nil || v.e == nil:
			return false
		case v.ended():
			// Where the trail ends, the type of what was asked of the
			// expression (the field selected below a receiver a
			// closure captures) still says what it holds, unless it is
			// an interface.
			if t := valueType(v); t == nil || types.IsInterface(t) || isKind(t, kind) {
				return false
			}
			continue
		case v.param >= 0:
			if len(v.path) > 0 || v.b.decl != b.decl || depth >= maxHolderCallers || !a.callersHandOther(fl, fns, fn, v, kind, depth) {
				return false
			}
			continue
		}
		if ta, ok := ast.Unparen(v.e).(*ast.TypeAssertExpr); ok {
			// obj.(metav1.Object): what obj holds.
			if !a.otherKindValues(fl, fns, fn, v.b, ta.X, kind, depth) {
				return false
			}
			continue
		}
		t := resultType(v.b.info.TypeOf(v.e), v.result)
		if t == nil || types.IsInterface(t) || isKind(t, kind) {
			return false
		}
		if len(v.path) > 0 && !isObject(t) {
			return false // below a value ctrlcmp did not follow into
		}
	}
	return true
}

// callersHandOther reports whether every call of fn in fns hands the
// parameter v stands for a value proven to hold no object of the primary
// type (and some call does).
func (a *analysis) callersHandOther(fl *flowEngine, fns []*ssa.Function, fn *ssa.Function, v flowVal, kind *types.Named, depth int) bool {
	found := false
	for _, caller := range fns {
		for _, c := range a.callsIn(caller) {
			if !slices.Contains(c.own, fn) {
				continue
			}
			cb := a.flowBodyOf(caller)
			if cb == nil {
				return false
			}
			if _, lit := caller.Syntax().(*ast.FuncLit); lit {
				if lb := a.closureBody(caller); lb != nil {
					cb = lb
				}
			}
			args := a.callArgs(cb.info, c.expr, v.b)
			if v.param >= len(args) || !a.otherKindValues(fl, fns, outermost(caller), cb, args[v.param], kind, depth+1) {
				return false
			}
			found = true
		}
	}
	return found
}
