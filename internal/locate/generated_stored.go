package locate

import (
	"go/ast"
	"go/types"
	"slices"
)

// Function-valued fields a generated reconciler's hand-written code calls:
// the one function every value stored in the field names (impl.EnqueueAfter
// kept by the constructor), read as a direct call of it would be.

// storedFuncFact is the knowledge table's fact of the function a call of a
// function-valued field runs, when every value the tree stores in the
// field names that one function (a method value, impl.EnqueueAfter),
// stored as it is or handed to the constructor that stores it; the field
// may be handed through a generic identity at the call (via(r.f)(…)).
func (a *analysis) storedFuncFact(c call) (Fact, bool) {
	info := a.infoAt(c.expr.Pos())
	sel, ok := ast.Unparen(a.passedFun(info, c.expr.Fun)).(*ast.SelectorExpr)
	if !ok {
		return Fact{}, false
	}
	field, ok := info.Uses[sel.Sel].(*types.Var)
	if !ok || !field.IsField() {
		return Fact{}, false
	}
	var held []*types.Func
	agree := true
	a.fieldStores(field, func(info *types.Info, fd *ast.FuncDecl, value ast.Expr) {
		fns, ok := a.namedFuncsOf(info, fd, value, 0)
		agree = agree && ok
		held = append(held, fns...)
	})
	if !agree || len(held) == 0 || slices.ContainsFunc(held, func(fn *types.Func) bool { return funcKey(fn) != funcKey(held[0]) }) {
		return Fact{}, false
	}
	fact, known := knowledge[funcKey(held[0])]
	return fact, known
}

// maxHandedDepth bounds how many callers up a function value handed as a
// parameter is followed.
const maxHandedDepth = 2

// namedFuncsOf is the function a value stored in fd names, or, when it is
// a parameter of fd, those the tree's calls of fd hand it; ok is false when
// one of them names no function.
func (a *analysis) namedFuncsOf(info *types.Info, fd *ast.FuncDecl, value ast.Expr, depth int) ([]*types.Func, bool) {
	value = stripConversions(info, value)
	if fn := namedFunc(info, value); fn != nil {
		return []*types.Func{fn}, true
	}
	id, ok := value.(*ast.Ident)
	if !ok || depth >= maxHandedDepth {
		return nil, false
	}
	obj, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil, false
	}
	sf := a.prog.Func(obj)
	if sf == nil {
		return nil, false
	}
	index := -1
	for i := 0; i < sf.Signature.Params().Len(); i++ {
		if sf.Signature.Params().At(i) == info.Uses[id] {
			index = i
		}
	}
	if index < 0 {
		return nil, false
	}
	var out []*types.Func
	for _, e := range a.prog.CallsInto(sf) {
		caller := e.Caller.Func
		cd, isDecl := caller.Syntax().(*ast.FuncDecl)
		if e.Site == nil || !isDecl {
			return nil, false
		}
		found := false
		for _, cc := range a.callsIn(caller) {
			if cc.expr.Lparen != e.Site.Common().Pos() || index >= len(cc.expr.Args) {
				continue
			}
			fns, ok := a.namedFuncsOf(a.infoAt(cc.expr.Pos()), cd, cc.expr.Args[index], depth+1)
			if !ok {
				return nil, false
			}
			out, found = append(out, fns...), true
		}
		if !found {
			return nil, false
		}
	}
	return out, len(out) > 0
}
