package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Finalizer lists assigned whole: obj.Finalizers = v. Whether v adds a
// finalizer is asked of the value-flow engine rather than read from v's
// syntax, so that the append may stand in a closure called at once or
// assigned first, a helper returning it in a tuple, or an options struct's
// field: the list adds a finalizer when an element it may hold is a new
// one (a constant, a literal, or a parameter naming the finalizer), not
// an element of the object's own list.

// flowAddedDepth bounds how many callers up a list handed as a parameter
// (a helper ranging over the lists it is given) is followed.
const flowAddedDepth = 3

// flowAdded is the finalizer an assignment of a whole list adds, followed
// through the engine from the assigned value rhs in fn: the first new
// element the list may hold, with the type information of the body it
// stands in and the function whose parameter it may be. A list that is a
// parameter of the function (or below one) is followed to the calls of
// that function in fns. ok is false when no new element is found (the
// list is filtered, emptied or not followed).
func (a *analysis) flowAdded(fns []*ssa.Function, fn *ssa.Function, rhs ast.Expr) (value ast.Expr, info *types.Info, in *ssa.Function, ok bool) {
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
	return a.newElement(fl, fns, outermost(fn), b, fl.values(b, rhs, elem), 0)
}

// newElement picks, of the values a finalizer list's elements may hold in
// body b (of function fn), the first new one: a string constant, or a
// parameter of fn naming the finalizer. Values a parameter of fn holds
// below it are followed to fn's callers in fns.
func (a *analysis) newElement(fl *flowEngine, fns []*ssa.Function, fn *ssa.Function, b *flowBody, vals []flowVal, depth int) (ast.Expr, *types.Info, *ssa.Function, bool) {
	for _, v := range vals {
		if v.b == nil || v.e == nil || v.zero {
			continue
		}
		if v.param >= 0 && len(v.path) > 0 && v.b.decl == b.decl {
			// A list handed in: what the callers hand (not the object's
			// own list, read below an object parameter).
			if p := v.b.params[v.param]; depth < flowAddedDepth && p != nil && !isObject(p.Type()) {
				if e, info, in, ok := a.callerElements(fl, fns, fn, v, depth); ok {
					return e, info, in, true
				}
			}
			continue
		}
		if len(v.path) > 0 || !stringTyped(v.b.info.TypeOf(v.e)) {
			continue
		}
		if tv, ok := v.b.info.Types[v.e]; ok && tv.Value != nil {
			return v.e, v.b.info, fn, true
		}
		if _, _, fixed := a.fixedString(v.b.info, v.e); fixed {
			// A package variable nothing writes after its constant
			// initialiser: that constant.
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
		if p, isVar := v.b.info.Uses[id].(*types.Var); isVar && paramIn(fn, p) {
			return v.e, v.b.info, fn, true
		}
	}
	return nil, nil, nil, false
}

// callerElements follows a value below a parameter of fn (its index
// counting the receiver first, as the engine does) to the arguments the
// calls of fn in fns hand it.
func (a *analysis) callerElements(fl *flowEngine, fns []*ssa.Function, fn *ssa.Function, v flowVal, depth int) (ast.Expr, *types.Info, *ssa.Function, bool) {
	for _, caller := range fns {
		for _, c := range a.callsIn(caller) {
			if !slices.Contains(c.own, fn) {
				continue
			}
			cb := a.flowBodyOf(caller)
			if cb == nil {
				continue
			}
			if _, lit := caller.Syntax().(*ast.FuncLit); lit {
				if lb := a.closureBody(caller); lb != nil {
					cb = lb
				}
			}
			args := a.callArgs(cb.info, c.expr, v.b)
			if v.param >= len(args) {
				continue
			}
			vals := fl.values(cb, args[v.param], v.path...)
			if e, info, in, ok := a.newElement(fl, fns, outermost(caller), cb, vals, depth+1); ok {
				return e, info, in, true
			}
		}
	}
	return nil, nil, nil, false
}

// callerRemovals reads a finalizer list that a setter (fn, or a closure
// of it) sets whole from its parameter (obj.Finalizers = list): the
// lists its callers in fns hand it that a call of one of the tree's
// functions, handed a finalizer constant (or a package variable fixed to
// one) and no append of it, computes (without(obj.Finalizers, X)): each
// is a removal of that finalizer, at that call.
func (a *analysis) callerRemovals(fns []*ssa.Function, fn *ssa.Function, rhs ast.Expr) []finOp {
	b := a.flowBodyOf(fn)
	if b == nil {
		return nil
	}
	fl := &flowEngine{a: a}
	var out []finOp
	seen := map[token.Pos]bool{}
	for _, v := range fl.values(b, rhs) {
		if v.b == nil || v.param < 0 || v.b.decl != b.decl {
			continue
		}
		for _, caller := range fns {
			for _, c := range a.callsIn(caller) {
				if !slices.Contains(c.own, outermost(fn)) {
					continue
				}
				cb := a.flowBodyOf(caller)
				if cb == nil {
					continue
				}
				args := a.callArgs(cb.info, c.expr, v.b)
				if v.param >= len(args) {
					continue
				}
				if len(v.path) > 0 {
					continue
				}
				// The list handed, or the call a local handed holds.
				arg := ast.Unparen(args[v.param])
				if id, ok := arg.(*ast.Ident); ok {
					if lv, ok := cb.info.Uses[id].(*types.Var); ok && !lv.IsField() {
						if def := onlyCallDef(cb.info, body(caller), lv); def != nil {
							arg = def
						}
					}
				}
				ce, ok := arg.(*ast.CallExpr)
				if !ok || seen[ce.Pos()] {
					continue
				}
				if _, isAppend := appended(cb.info, ce); isAppend || len(a.makeCall(cb.info, ce, caller).own) == 0 {
					continue
				}
				for _, x := range ce.Args {
					if !stringTyped(cb.info.TypeOf(x)) {
						continue
					}
					_, _, fixed := a.fixedString(cb.info, x)
					if tv, ok := cb.info.Types[x]; fixed || ok && tv.Value != nil {
						seen[ce.Pos()] = true
						out = append(out, finOp{pos: ce.Pos(), value: x, info: cb.info, in: caller})
						break
					}
				}
			}
		}
	}
	return out
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
