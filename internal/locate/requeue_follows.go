package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Whether a wait comes after work that succeeded: a write before the
// return that hands it back.

// followsWrite reports whether a statement before the return, in the block
// that holds it, writes to the API server (events aside), itself or, with
// helpers, through a helper of the tree's: the return then comes after
// work that succeeded, or the write's failure would have returned first.
// With outer, the statements before the one holding the return in each
// enclosing block of its function count too (a wait in a loop, after the
// loop body's write of each child).
func (a *analysis) followsWrite(fn *ssa.Function, info *types.Info, ret *ast.ReturnStmt, helpers, outer bool) bool {
	child := ast.Node(ret)
	for _, n := range a.path(ret.Pos(), ret.End()) {
		if isFunc(n) {
			return false
		}
		list, ok := stmtList(n)
		if !ok {
			child = n
			continue
		}
		if a.writesBefore(fn, info, list, child, ret, helpers) {
			return true
		}
		if !outer {
			return false
		}
		child = n
	}
	return false
}

// writesBefore reports whether a statement of list before the one at
// child writes, as followsWrite counts writes: outside the branches in it
// that end in a return, and not the object's status (a status write
// records what the pass saw, it makes nothing to wait for).
func (a *analysis) writesBefore(fn *ssa.Function, info *types.Info, list []ast.Stmt, child ast.Node, ret *ast.ReturnStmt, helpers bool) bool {
	found := false
	for i, st := range list {
		if st.Pos() >= child.Pos() {
			break
		}
		ast.Inspect(st, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit || found {
				return false
			}
			// A write in a branch that returns is not before the return.
			switch b := n.(type) {
			case *ast.BlockStmt:
				if endsInReturn(b.List) {
					return false
				}
			case *ast.CaseClause:
				if endsInReturn(b.Body) {
					return false
				}
			}
			if ce, ok := n.(*ast.CallExpr); ok {
				c := a.makeCall(info, ce, fn)
				if w, ok := a.writeOf(info, c); ok && !(c.known && c.fact.Role == RoleEvent) && w.verb != "" && !w.status {
					found = true
				} else if helpers && !c.known && len(c.own) > 0 && a.failureReturnedAfter(info, list[i:], st, ce, ret) && slices.ContainsFunc(c.own, a.makesWork) {
					// obj, err := r.createChild(…); if err != nil {
					// return … }: a helper of the tree's that writes,
					// its failure returned before.
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// endsInReturn reports whether a list of statements ends in a return.
func endsInReturn(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	_, ok := list[len(list)-1].(*ast.ReturnStmt)
	return ok
}

// failureReturnedAfter reports whether the error a call hands back last is
// tested against nil, with a return under the test, before ret: the call's
// assignment st (x, err := f(…)) followed in list by such an if, or an if
// whose init the call is (if err := f(…); err != nil { return … }).
func (a *analysis) failureReturnedAfter(info *types.Info, list []ast.Stmt, st ast.Stmt, ce *ast.CallExpr, ret ast.Node) bool {
	var as *ast.AssignStmt
	var tests []*ast.IfStmt
	switch x := st.(type) {
	case *ast.AssignStmt:
		as = x
		for _, later := range list[1:] {
			if ifs, ok := later.(*ast.IfStmt); ok && later.End() <= ret.Pos() {
				tests = append(tests, ifs)
			}
		}
	case *ast.IfStmt:
		as, _ = x.Init.(*ast.AssignStmt)
		tests = append(tests, x)
	}
	if as == nil || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != ce {
		return false
	}
	id, ok := ast.Unparen(as.Lhs[len(as.Lhs)-1]).(*ast.Ident)
	if !ok {
		return false
	}
	v := info.ObjectOf(id)
	if v == nil || !isErrorType(v.Type()) {
		return false
	}
	for _, ifs := range tests {
		if testsAgainstNil(info, ifs.Cond, v) && holdsReturn(ifs.Body) {
			return true
		}
	}
	return false
}

// stmtList is the statement list a block, a case clause or a select's
// clause holds, and whether n is one of those.
func stmtList(n ast.Node) ([]ast.Stmt, bool) {
	switch b := n.(type) {
	case *ast.BlockStmt:
		return b.List, true
	case *ast.CaseClause:
		return b.Body, true
	case *ast.CommClause:
		return b.Body, true
	}
	return nil, false
}

// isFunc reports whether n is a function declaration or literal.
func isFunc(n ast.Node) bool {
	switch n.(type) {
	case *ast.FuncDecl, *ast.FuncLit:
		return true
	}
	return false
}
