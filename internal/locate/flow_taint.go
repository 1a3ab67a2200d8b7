package locate

import (
	"go/ast"
	"go/types"
)

// The intraprocedural helpers the re-read, read-helper and patch locators
// share.

// mentions reports whether e uses one of the variables.
func mentions(info *types.Info, e ast.Node, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// assignedFrom adds to vars the variables body assigns or declares from e:
// those on the left of the value that is e (exact: `x, err := e`), or of
// the value that holds it (`ops = append(ops, e)`); the first of them when
// one value gives several.
func assignedFrom(info *types.Info, body ast.Node, e ast.Expr, exact bool, vars map[*types.Var]bool) {
	holds := func(v ast.Expr) bool {
		if exact {
			return ast.Unparen(v) == e
		}
		return v.Pos() <= e.Pos() && e.End() <= v.End()
	}
	add := func(lhs []ast.Expr, values []ast.Expr) {
		for i, v := range values {
			if !holds(v) {
				continue
			}
			if len(lhs) != len(values) {
				i = 0
			}
			if id, ok := ast.Unparen(lhs[i]).(*ast.Ident); ok {
				if v, ok := info.ObjectOf(id).(*types.Var); ok {
					vars[v] = true
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			add(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			names := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				names[i] = id
			}
			add(names, n.Values)
		}
		return true
	})
}

// taint grows vars with every variable of body assigned from an expression
// that uses one of them, and with the parameters of closures called with
// them, until nothing changes. An API object is never the key, even when
// it was read by the key: what its fields name (a child's name, a storage
// class) is another object's.
func taint(info *types.Info, body ast.Node, vars map[*types.Var]bool) {
	for changed := true; changed; {
		changed = false
		mark := func(id *ast.Ident) {
			v, ok := info.Defs[id].(*types.Var)
			if !ok {
				v, ok = info.Uses[id].(*types.Var)
			}
			if ok && !vars[v] && !isReadObject(v.Type()) {
				vars[v] = true
				changed = true
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, r := range n.Rhs {
					if mentions(info, r, vars) {
						for _, l := range n.Lhs {
							if id, ok := ast.Unparen(l).(*ast.Ident); ok {
								mark(id)
							}
						}
						break
					}
				}
			case *ast.ValueSpec:
				for _, r := range n.Values {
					if mentions(info, r, vars) {
						for _, id := range n.Names {
							mark(id)
						}
						break
					}
				}
			case *ast.RangeStmt:
				if mentions(info, n.X, vars) {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							mark(id)
						}
					}
				}
			case *ast.CallExpr:
				if lit, ok := ast.Unparen(n.Fun).(*ast.FuncLit); ok {
					params := paramIdents(lit.Type)
					for i, arg := range n.Args {
						if i < len(params) && mentions(info, arg, vars) {
							mark(params[i])
						}
					}
				}
			}
			return true
		})
	}
}

// paramIdents are the names a function type declares for its parameters.
func paramIdents(ft *ast.FuncType) []*ast.Ident {
	var ids []*ast.Ident
	for _, f := range ft.Params.List {
		ids = append(ids, f.Names...)
	}
	return ids
}
