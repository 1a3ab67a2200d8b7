package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// removedValue is the finalizer an assignment of a whole finalizer list
// removes when it drops the element at a loop's index from the list the
// loop ranges over, under a test of the loop's element against a value:
//
//	for i, f := range obj.Finalizers {
//		if f == V {
//			obj.Finalizers = append(obj.Finalizers[:i], obj.Finalizers[i+1:]...)
//
// V, or nil when the assignment is not such a removal.
func (a *analysis) removedValue(info *types.Info, as *ast.AssignStmt) ast.Expr {
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || !call.Ellipsis.IsValid() || len(call.Args) != 2 {
		return nil
	}
	head, ok := ast.Unparen(call.Args[0]).(*ast.SliceExpr)
	if !ok || head.High == nil || fieldOf(info, head.X) != fieldFinalizers {
		return nil
	}
	index, ok := ast.Unparen(head.High).(*ast.Ident)
	if !ok {
		return nil
	}
	at := info.Uses[index]
	path := a.path(as.Pos(), as.End())
	var test ast.Expr
	for _, n := range path {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.FuncDecl:
			return nil
		case *ast.IfStmt:
			if test == nil {
				test = n.Cond
			}
		case *ast.RangeStmt:
			key, ok := n.Key.(*ast.Ident)
			if !ok || info.Defs[key] != at || fieldOf(info, n.X) != fieldFinalizers {
				continue
			}
			elem, ok := n.Value.(*ast.Ident)
			if !ok || test == nil {
				return nil
			}
			return comparedWith(info, test, info.Defs[elem])
		}
	}
	return nil
}

// comparedWith is the other side of an equality test of a variable
// (v == X or X == v), or nil when the test is not one.
func comparedWith(info *types.Info, test ast.Expr, v types.Object) ast.Expr {
	be, ok := ast.Unparen(test).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL || v == nil {
		return nil
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	switch {
	case is(be.X):
		return be.Y
	case is(be.Y):
		return be.X
	}
	return nil
}
