package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// maxPassDepth bounds how many functions that hand back a function value
// unchanged (via(via(f))) a callee is looked for through.
const maxPassDepth = 4

// callTarget is what a call's function expression runs, seen through the
// shapes that hide it from the call's own syntax: a function value a
// function hands back unchanged (a generic identity, via(r.Get)(…)), and
// a method called on a concrete value converted to an interface at the
// call (I(x).M(…) runs x's M).
type callTarget struct {
	fn *types.Func
	// recv is the receiver a method value runs on (nil for a function or
	// a method expression); methodExpr says the receiver is the first
	// argument.
	recv       ast.Expr
	methodExpr bool
}

// target resolves a call's function expression to the function it runs;
// the zero callTarget when it is not named (a func value, a field).
func (a *analysis) target(info *types.Info, fun ast.Expr, depth int) callTarget {
	fun = ast.Unparen(fun)
	switch x := fun.(type) {
	case *ast.CallExpr:
		if depth >= maxPassDepth {
			return callTarget{}
		}
		fn, ok := typeutil.Callee(info, x).(*types.Func)
		if !ok {
			return callTarget{}
		}
		if i := a.passesOn(fn); i >= 0 && i < len(x.Args) {
			return a.target(info, x.Args[i], depth+1)
		}
		return callTarget{}
	case *ast.SelectorExpr:
		if s := info.Selections[x]; s != nil {
			fn, ok := s.Obj().(*types.Func)
			switch {
			case !ok:
				return callTarget{}
			case s.Kind() == types.MethodExpr:
				return callTarget{fn: fn, methodExpr: true}
			}
			// I(J(x)).M: the value converted first.
			y := x.X
			for z := interfaceConversion(info, y); z != nil && isInterfaceMethod(fn); z = interfaceConversion(info, z) {
				y = z
			}
			if y != x.X {
				if m := methodOf(info.TypeOf(y), fn); m != nil {
					return callTarget{fn: m, recv: y}
				}
			}
			return callTarget{fn: fn, recv: x.X}
		}
	}
	fn, _ := typeutil.Callee(info, &ast.CallExpr{Fun: fun}).(*types.Func)
	return callTarget{fn: fn}
}

// passedFun is the function expression a call's function expression hands
// on through own functions that pass it back unchanged (via(f)(…) runs
// f), or fun itself.
func (a *analysis) passedFun(info *types.Info, fun ast.Expr) ast.Expr {
	for range maxPassDepth {
		x, ok := ast.Unparen(fun).(*ast.CallExpr)
		if !ok {
			break
		}
		fn, ok := typeutil.Callee(info, x).(*types.Func)
		if !ok {
			break
		}
		i := a.passesOn(fn)
		if i < 0 || i >= len(x.Args) {
			break
		}
		fun = x.Args[i]
	}
	return fun
}

// passesOn returns the index of the parameter an own function hands back
// unchanged from every return (a generic identity, func via[F any](f F) F
// { return f }), or -1.
func (a *analysis) passesOn(fn *types.Func) int {
	decl := a.decls[fn.Origin()]
	sig, ok := fn.Type().(*types.Signature)
	if decl == nil || decl.Body == nil || !ok || sig.Results().Len() != 1 {
		return -1
	}
	info := a.infoAt(decl.Pos())
	if info == nil {
		return -1
	}
	var params []*types.Var
	for v := range fn.Origin().Type().(*types.Signature).Params().Variables() {
		params = append(params, v)
	}
	index, same := -1, true
	returnsOf(decl.Body, func(r *ast.ReturnStmt) {
		i := -1
		if len(r.Results) == 1 {
			if id, ok := ast.Unparen(r.Results[0]).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					i = slices.Index(params, v)
				}
			}
		}
		if i < 0 || index >= 0 && i != index {
			same = false
		}
		index = i
	})
	if !same {
		return -1
	}
	return index
}

// interfaceConversion returns x of an expression I(x) converting a value
// to an interface type, or nil.
func interfaceConversion(info *types.Info, e ast.Expr) ast.Expr {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(ce.Args) != 1 {
		return nil
	}
	tv, ok := info.Types[ce.Fun]
	if !ok || !tv.IsType() || !types.IsInterface(tv.Type) {
		return nil
	}
	return ce.Args[0]
}

// methodOf is the method a value of type t runs for the interface method
// m (t's own, a promoted one, or that of the interface t is), or nil.
func methodOf(t types.Type, m *types.Func) *types.Func {
	if t == nil {
		return nil
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, m.Pkg(), m.Name())
	fn, _ := obj.(*types.Func)
	return fn
}

// dispatched is the method an interface call runs when the interface value
// is made at the call from a concrete value or another interface (SSA's
// form of I(x).M(…), and of I(J(x)).M(…)), or nil.
func dispatched(c *ssa.CallCommon) *types.Func {
	v := c.Value
	for {
		ci, ok := v.(*ssa.ChangeInterface)
		if !ok {
			break
		}
		v = ci.X
	}
	x := v
	if mi, ok := v.(*ssa.MakeInterface); ok {
		x = mi.X
	} else if v == c.Value {
		return nil
	}
	return methodOf(x.Type(), c.Method)
}

// passedThrough follows a func value back through the calls of functions
// that hand back a parameter unchanged (via(f)), to the value handed in.
func passedThrough(v ssa.Value) ssa.Value {
	for depth := 0; depth < maxPassDepth; depth++ {
		call, ok := v.(*ssa.Call)
		if !ok {
			return v
		}
		g := call.Call.StaticCallee()
		i := returnedParam(g)
		if i < 0 || i >= len(call.Call.Args) {
			return v
		}
		v = call.Call.Args[i]
	}
	return v
}

// returnedParam returns the index of the parameter every return of fn
// hands back unchanged, or -1 (no body, or another value returned).
func returnedParam(fn *ssa.Function) int {
	if fn == nil || len(fn.Blocks) == 0 || fn.Signature.Results().Len() != 1 {
		return -1
	}
	index := -1
	for _, b := range fn.Blocks {
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		p, ok := resultOf(r, 0).(*ssa.Parameter)
		if !ok {
			return -1
		}
		i := -1
		for j, q := range fn.Params {
			if q == p {
				i = j
			}
		}
		if i < 0 || index >= 0 && i != index {
			return -1
		}
		index = i
	}
	return index
}
