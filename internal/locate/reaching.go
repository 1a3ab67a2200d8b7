package locate

// The definition of a local variable that reaches a use of it: the value a
// boolean flag holds where an if tests it, when the function assigns the
// flag more than once (deleted := false; … deleted = true …; deleted =
// deleted || !obj.DeletionTimestamp.IsZero(); if deleted { … }).

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// reachingDefinition is the value of the assignment to the local variable
// id uses that every path to the use runs last: the nearest statement
// before the use's, in the same block or an enclosing one, that assigns
// the variable alone (v = e, v := e), with no statement between them that
// may assign it or take its address, and no loop around the use whose body
// may (a later pass of the loop would reach the use with that value). Nil
// when there is none.
func (a *analysis) reachingDefinition(info *types.Info, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	return reachingIn(info, a.path(id.Pos(), id.End()), v)
}

// reachingIn is reachingDefinition over the syntax path from the use out.
func reachingIn(info *types.Info, path []ast.Node, v *types.Var) ast.Expr {
	for i := 1; i < len(path); i++ {
		switch p := path[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return nil
		case *ast.ForStmt:
			if mayAssign(info, p.Body, v) || p.Post != nil && mayAssign(info, p.Post, v) {
				return nil
			}
		case *ast.RangeStmt:
			if mayAssign(info, p, v) {
				return nil
			}
		case *ast.BlockStmt:
			at := slices.IndexFunc(p.List, func(s ast.Stmt) bool { return s == path[i-1] })
			for j := at - 1; j >= 0; j-- {
				if e, sole := soleAssignment(info, p.List[j], v); sole {
					return e
				}
				if mayAssign(info, p.List[j], v) {
					return nil
				}
			}
		}
		// A statement's init runs before its test and body (if ok = f();
		// ok {…}): the nearest assignment when it makes one.
		if init := initOf(path[i]); init != nil && init != path[i-1] {
			if e, sole := soleAssignment(info, init, v); sole {
				return e
			}
			if mayAssign(info, init, v) {
				return nil
			}
		}
	}
	return nil
}

// initOf is the init statement of an if, switch or for, or nil.
func initOf(n ast.Node) ast.Stmt {
	switch s := n.(type) {
	case *ast.IfStmt:
		return s.Init
	case *ast.SwitchStmt:
		return s.Init
	case *ast.TypeSwitchStmt:
		return s.Init
	case *ast.ForStmt:
		return s.Init
	}
	return nil
}

// soleAssignment is, when s assigns v alone a value (v = e, v := e, with
// one right-hand side for each left), that value.
func soleAssignment(info *types.Info, s ast.Stmt, v *types.Var) (ast.Expr, bool) {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) || as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
		return nil, false
	}
	for i, l := range as.Lhs {
		if lid, ok := ast.Unparen(l).(*ast.Ident); ok && (info.Defs[lid] == v || info.Uses[lid] == v) {
			return as.Rhs[i], true
		}
	}
	return nil, false
}

// mayAssign reports whether n may store into v: any write eachWrite
// visits (an assignment, a range's key or value, an increment, its address
// taken: a callee may store through it).
func mayAssign(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	eachWrite(n, func(e ast.Expr, _ *ast.UnaryExpr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok && (info.Uses[id] == v || info.Defs[id] == v) {
			found = true
		}
	})
	return found
}
