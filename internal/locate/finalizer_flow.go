package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Finalizer lists assigned whole: obj.Finalizers = v. Whether v adds a
// finalizer is asked of the value-flow engine rather than read from v's
// syntax, so that the append may stand in a closure called at once or
// assigned first, a helper returning it in a tuple, or an options struct's
// field: the list adds a finalizer when an element it may hold is a new
// one (a constant, a literal, or a parameter naming the finalizer), not
// an element of the object's own list.

// flowAdded is the finalizer an assignment of a whole list adds, followed
// through the engine from the assigned value rhs in fn: the first new
// element the list may hold, with the type information of the body it
// stands in and the function whose parameter it may be. ok is false when
// no new element is found (the list is filtered, emptied or not followed).
func (a *analysis) flowAdded(fn *ssa.Function, rhs ast.Expr) (value ast.Expr, info *types.Info, in *ssa.Function, ok bool) {
	b := a.flowBodyOf(fn)
	if b == nil {
		return nil, nil, nil, false
	}
	if _, lit := fn.Syntax().(*ast.FuncLit); lit {
		if cb := a.closureBody(fn); cb != nil {
			b = cb
		}
	}
	fl := &flowEngine{a: a}
	for _, v := range fl.values(b, rhs, elem) {
		if v.b == nil || v.e == nil || v.zero || len(v.path) > 0 || !stringTyped(v.b.info.TypeOf(v.e)) {
			continue
		}
		if tv, ok := v.b.info.Types[v.e]; ok && tv.Value != nil {
			return v.e, v.b.info, fn, true
		}
		if v.b.decl != b.decl {
			continue
		}
		// A parameter of the function holding the assignment (read in a
		// closure of it, the engine ends there: read from elsewhere).
		id, isID := ast.Unparen(v.e).(*ast.Ident)
		if !isID {
			continue
		}
		if p, isVar := v.b.info.Uses[id].(*types.Var); isVar && paramIn(outermost(fn), p) {
			return v.e, v.b.info, outermost(fn), true
		}
	}
	return nil, nil, nil, false
}

// outermost is the function declaring fn (fn itself, or the function
// holding the closure fn is).
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}

// paramIn reports whether v is one of fn's parameters (not its receiver).
func paramIn(fn *ssa.Function, v *types.Var) bool {
	params := fn.Signature.Params()
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			return true
		}
	}
	return false
}

// stringTyped reports whether t is a string type, untyped included.
func stringTyped(t types.Type) bool {
	if t == nil {
		return false
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}
