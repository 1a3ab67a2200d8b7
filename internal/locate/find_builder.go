package locate

import (
	"go/ast"
	"go/types"
)

// Which builder calls belong to one registration: the receiver a watch is
// made on, the root a builder chain starts from, and the options fields
// assigned along the way.

// watchOf returns the receiver of the method call that a source is handed
// to (c.Watch(source.Kind(...))), or nil.
func (a *analysis) watchOf(src call) ast.Expr {
	path := a.path(src.expr.Pos(), src.expr.End())
	for _, n := range path[1:] {
		if ce, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok {
				return sel.X
			}
			return nil
		}
	}
	return nil
}

// builderRoot is what a fluent chain of method calls starts from: the
// variable it is called on, or the first call (NewControllerManagedBy(mgr)).
// A method that returns a value of its receiver's type is taken to return
// the receiver, as a builder's do.
func builderRoot(info *types.Info, e ast.Expr) any {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return x
			}
			s := info.Selections[sel]
			sig, isSig := info.TypeOf(x.Fun).(*types.Signature)
			if s == nil || s.Kind() != types.MethodVal || !isSig || sig.Results().Len() != 1 ||
				!types.Identical(sig.Results().At(0).Type(), info.TypeOf(sel.X)) {
				return x
			}
			e = sel.X
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok {
				return v
			}
			return x
		case *ast.SelectorExpr:
			// A builder or controller kept in a field (r.ctrl.Watch(…)).
			if s := info.Selections[x]; s != nil && s.Kind() == types.FieldVal {
				return s.Obj()
			}
			return x
		default:
			return x
		}
	}
}

// fieldsAssigned adds to vars the fields a body assigns the value of e to
// (r.ctrl, err = controller.New(…)).
func fieldsAssigned(info *types.Info, body ast.Node, e ast.Expr, vars map[*types.Var]bool) {
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, rhs := range as.Rhs {
			if ast.Unparen(rhs) != e {
				continue
			}
			if len(as.Lhs) != len(as.Rhs) {
				i = 0
			}
			if sel, ok := ast.Unparen(as.Lhs[i]).(*ast.SelectorExpr); ok {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
					if v, ok := s.Obj().(*types.Var); ok {
						vars[v] = true
					}
				}
			}
		}
		return true
	})
}

// builderGroup returns the roots of one builder value, from the root of a
// chain: the root and, when it is a variable, the roots of every value the
// body assigns to it, transitively.
func builderGroup(info *types.Info, body ast.Node, root any) map[any]bool {
	group := map[any]bool{}
	var visit func(r any)
	visit = func(r any) {
		if r == nil || group[r] {
			return
		}
		group[r] = true
		v, ok := r.(*types.Var)
		if !ok {
			return
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.AssignStmt:
				if len(s.Lhs) == len(s.Rhs) {
					for i, l := range s.Lhs {
						if id, ok := ast.Unparen(l).(*ast.Ident); ok && info.ObjectOf(id) == v {
							visit(builderRoot(info, s.Rhs[i]))
						}
					}
				}
			case *ast.ValueSpec:
				for i, id := range s.Names {
					if i < len(s.Values) && len(s.Names) == len(s.Values) && info.ObjectOf(id) == v {
						visit(builderRoot(info, s.Values[i]))
					}
				}
			}
			return true
		})
	}
	visit(root)
	return group
}

// optionsField returns the value of a field in an options literal, or nil.
func optionsField(info *types.Info, e ast.Expr, field string) ast.Expr {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var value ast.Expr
	keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		if v.Name() == field {
			value = kv.Value
		}
	})
	return value
}
