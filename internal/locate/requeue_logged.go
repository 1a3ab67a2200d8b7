package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"
)

// loggedFailure reports whether a return stands in a branch that logs at
// error level before it (the knowledge table's RoleLogError: a logger's
// Error, klog.Errorf), in the branch itself or in a branch around it, not
// at the top level of the function: the code says the branch is a
// failure, so a nil-error wait there retries it.
func (a *analysis) loggedFailure(info *types.Info, n ast.Node) bool {
	return a.doneBefore(info, n, false, func(st ast.Stmt) bool { return callsRole(info, st, RoleLogError) })
}

// markedFailure reports whether a return stands in a branch that sets a
// condition of an object before it (the knowledge table's
// RoleConditionSet or RoleManagedCondition: Flux's MarkFalse), in the
// branch itself or in a branch around it, or, in a helper whose results
// its caller hands back (top), at the helper's top level: under a test of
// an error, the code records the failure there, so a wait after it
// retries.
func (a *analysis) markedFailure(info *types.Info, n ast.Node, top bool) bool {
	return a.doneBefore(info, n, top, func(st ast.Stmt) bool {
		return callsRole(info, st, RoleConditionSet) || callsRole(info, st, RoleManagedCondition)
	})
}

// doneBefore reports whether a simple statement that does holds before n
// in the branch holding n or in a branch around it, and at the top level
// of the function only when top says so.
func (a *analysis) doneBefore(info *types.Info, n ast.Node, top bool, does func(ast.Stmt) bool) bool {
	path := a.path(n.Pos(), n.End())
	for i := 1; i < len(path); i++ {
		var list []ast.Stmt
		switch p := path[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			if i+1 < len(path) {
				switch path[i+1].(type) {
				case *ast.FuncDecl, *ast.FuncLit:
					if !top {
						return false // the function's own body
					}
				}
			}
			list = p.List
		case *ast.CaseClause:
			list = p.Body
		default:
			continue
		}
		for _, st := range list {
			if st == path[i-1] {
				break
			}
			if does(st) {
				return true
			}
		}
	}
	return false
}

// callsRole reports whether a simple statement calls a function of the
// knowledge table's role (an error-level logger, a condition setter),
// outside the closures it holds; a compound one (an if, a loop) calls it
// only on some of its paths.
func callsRole(info *types.Info, st ast.Stmt, role Role) bool {
	switch st.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt:
	default:
		return false
	}
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, x).(*types.Func); ok {
				if fact, known := knowledge[funcKey(fn)]; known && fact.Role == role {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// callHandlesFailure reports whether a call of the tree's own code
// returns under a test of an error somewhere in its callee's body: it does
// work that can fail, where a result builder only computes a result.
func (a *analysis) callHandlesFailure(info *types.Info, ce *ast.CallExpr, fn *ssa.Function, kind *types.Named) bool {
	for _, callee := range a.makeCall(info, ce, fn).own {
		b := body(callee)
		if b == nil {
			continue
		}
		cinfo := a.infoAt(b.Pos())
		found := false
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				found = found || a.requeueGuard(cinfo, n, kind, callee) == guardError
			}
			return !found
		})
		if found {
			return true
		}
	}
	return false
}
