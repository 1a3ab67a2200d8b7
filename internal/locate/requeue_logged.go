package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// loggedFailure reports whether a return stands in a branch that logs at
// error level before it (the knowledge table's RoleLogError: a logger's
// Error, klog.Errorf), in the branch itself or in a branch around it, not
// at the top level of the function: the code says the branch is a
// failure, so a nil-error wait there retries it.
func (a *analysis) loggedFailure(info *types.Info, n ast.Node) bool {
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
					return false // the function's own body
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
			if logsError(info, st) {
				return true
			}
		}
	}
	return false
}

// logsError reports whether a simple statement calls an error-level
// logger (RoleLogError), outside the closures it holds; a compound one
// (an if, a loop) logs only on some of its paths.
func logsError(info *types.Info, st ast.Stmt) bool {
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
				if fact, known := knowledge[funcKey(fn)]; known && fact.Role == RoleLogError {
					found = true
				}
			}
		}
		return !found
	})
	return found
}
