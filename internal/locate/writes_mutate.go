package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// serverSet are the object's fields and setters that put back what the
// server set (its uid, creation time, managed fields), or the whole of its
// metadata.
var serverSet = map[string]bool{
	"ObjectMeta": true, "UID": true, "CreationTimestamp": true, "ManagedFields": true,
	"SetUID": true, "SetCreationTimestamp": true, "SetManagedFields": true,
}

// replacedByMutate is, for a create-or-update (or -patch) call c whose
// mutate function is a function literal that assigns the whole object it
// is handed (*svc = build(…), or svc = build(…) for a call handed &svc)
// from a value that does not read the object, the position of that
// assignment: the metadata the server set, which the library's read filled
// in, is gone, so its comparison with the live object never finds them
// equal. NoPos otherwise, and when the literal puts any of that metadata
// back after the assignment.
func (a *analysis) replacedByMutate(info *types.Info, c call) token.Pos {
	args := c.expr.Args
	f := c.fact
	if !c.known || f.Mutate <= 0 || f.Mutate >= len(args) || f.Obj < 0 || f.Obj >= len(args) {
		return token.NoPos
	}
	lit, ok := ast.Unparen(args[f.Mutate]).(*ast.FuncLit)
	if !ok {
		return token.NoPos
	}
	objArg, byAddr := ast.Unparen(args[f.Obj]), false
	if u, ok := objArg.(*ast.UnaryExpr); ok && u.Op == token.AND {
		objArg, byAddr = ast.Unparen(u.X), true
	}
	id, ok := objArg.(*ast.Ident)
	if !ok || info.Uses[id] == nil {
		return token.NoPos
	}
	obj := info.Uses[id]
	replaced := token.NoPos
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if !replaced.IsValid() && n.Tok == token.ASSIGN && len(n.Lhs) == 1 && len(n.Rhs) == 1 &&
				wholeObject(info, n.Lhs[0], obj, byAddr) && !reads(info, n.Rhs[0], obj) {
				replaced = n.Pos()
			}
		case *ast.SelectorExpr:
			if replaced.IsValid() && n.Pos() > replaced && serverSet[n.Sel.Name] && reads(info, n.X, obj) {
				replaced = token.NoPos
				return false
			}
		}
		return true
	})
	return replaced
}

// wholeObject reports whether lhs is the object obj names as a whole: *obj
// for a pointer handed on, obj itself for a variable handed by address.
func wholeObject(info *types.Info, lhs ast.Expr, obj types.Object, byAddr bool) bool {
	if !byAddr {
		st, ok := ast.Unparen(lhs).(*ast.StarExpr)
		if !ok {
			return false
		}
		lhs = st.X
	}
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	return ok && info.Uses[id] == obj
}

// reads reports whether e mentions the variable obj.
func reads(info *types.Info, e ast.Expr, obj types.Object) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
