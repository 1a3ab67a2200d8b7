package locate

// The bool a comparison hands back, traced to the call that computed it: a
// helper's bool result, or a bool field of the struct it returns.

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// comparisonResult reads a selector of a bool field of a local variable
// that a call of one of the tree's functions returning a struct (or a
// pointer to one) that is no object defines, once: the result of a
// comparison helper, whose fields say how two states differ. It returns
// the call and the function, which reads what it compares through what it
// is handed, its receiver or what its closure captures; nil otherwise.
func (a *analysis) comparisonResult(info *types.Info, body *ast.BlockStmt, e *ast.SelectorExpr) (*ast.CallExpr, *ssa.Function) {
	sel := info.Selections[e]
	if sel == nil || sel.Kind() != types.FieldVal {
		return nil, nil
	}
	if b, ok := sel.Obj().Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil, nil
	}
	id, ok := ast.Unparen(e.X).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || IsObjectPointer(v.Type()) {
		return nil, nil
	}
	if _, isStruct := deref(v.Type()).Underlying().(*types.Struct); !isStruct {
		return nil, nil
	}
	call := onlyCallDef(info, body, v)
	if call == nil {
		return nil, nil
	}
	c := a.makeCall(info, call, nil)
	if c.known || len(c.own) != 1 {
		return nil, nil
	}
	return call, c.own[0]
}

// localBool is the local bool variable an identifier uses, or nil.
func localBool(info *types.Info, id *ast.Ident) *types.Var {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	return v
}

// firstResultBool reports whether fn's first result is a bool (a
// predicate, which may hand back what it found beside it).
func firstResultBool(fn *ssa.Function) bool {
	r := fn.Signature.Results()
	if r.Len() == 0 {
		return false
	}
	b, ok := r.At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// boolFromCall is the call a bool variable holds the first result of, when
// it is assigned once in body, from a call: v := f(…), or v, x := f(…).
func boolFromCall(info *types.Info, body ast.Node, id *ast.Ident) *ast.CallExpr {
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	return onlyCallDef(info, body, v)
}

// onlyCallDef is the call whose first result v holds, when body assigns
// v once and that from a call alone (v := f(…), v, x := f(…)); nil
// otherwise.
func onlyCallDef(info *types.Info, body ast.Node, v *types.Var) *ast.CallExpr {
	var from *ast.CallExpr
	n := 0
	ast.Inspect(body, func(node ast.Node) bool {
		as, ok := node.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, l := range as.Lhs {
			if lid, ok := ast.Unparen(l).(*ast.Ident); !ok || info.ObjectOf(lid) != v {
				continue
			}
			n++
			if i == 0 && len(as.Rhs) == 1 {
				from, _ = ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return from
}
