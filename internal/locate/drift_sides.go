package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The sides of a comparison that read no desired state: two values of one
// live object (its generation against its observed generation: whether
// that object's own controller has caught up), and the status of an object
// other than the primary (what its controller observed: a rollout's
// progress, a revision reached), which the controller waits on and never
// writes back.

// objectAt is the shortest prefix of a selection, index or getter chain
// that is an object value (sess.update in sess.update.Status.Phase), and
// the selector made on it; nil when none is.
func objectAt(info *types.Info, e ast.Expr) (ast.Expr, *ast.SelectorExpr) {
	var obj ast.Expr
	var next *ast.SelectorExpr
	for e = ast.Unparen(e); ; {
		var inner ast.Expr
		var sel *ast.SelectorExpr
		switch x := e.(type) {
		case *ast.SelectorExpr:
			inner, sel = x.X, x
		case *ast.IndexExpr:
			inner = x.X
		case *ast.StarExpr:
			inner = x.X
		case *ast.CallExpr:
			s, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok || len(x.Args) > 0 {
				return obj, next
			}
			inner, sel = s.X, s
		default:
			return obj, next
		}
		inner = ast.Unparen(inner)
		if isObjectValue(info.TypeOf(inner)) {
			obj, next = inner, sel
		}
		e = inner
	}
}

// rootVar is the variable a chain of selections starts from, or nil.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			return v
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.CallExpr:
			e = x.Fun
		default:
			return nil
		}
	}
}

// oneObject reports whether both sides of a comparison read one object
// (ws.Generation != ws.Status.ObservedGeneration): a test of that
// object's progress, with no desired state on either side.
func oneObject(info *types.Info, x, y ast.Expr) bool {
	ox, _ := objectAt(info, x)
	oy, _ := objectAt(info, y)
	if ox == nil || oy == nil || types.ExprString(ox) != types.ExprString(oy) {
		return false
	}
	v := rootVar(info, ox)
	return v != nil && v == rootVar(info, oy)
}

// readsOtherStatus reports whether an expression reads the Status of an
// object that is not of the primary kind (ss.Status.CurrentRevision).
func readsOtherStatus(info *types.Info, kind *types.Named, e ast.Expr) bool {
	obj, sel := objectAt(info, e)
	if obj == nil || sel == nil || sel.Sel.Name != statusField || kind != nil && isKind(info.TypeOf(obj), kind) {
		return false
	}
	s := info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal
}

// progressOnly reports whether every comparison a condition makes (at
// least one) tests progress: two values of one object, or another
// object's status; and it calls nothing handed two values.
func progressOnly(info *types.Info, kind *types.Named, cond ast.Expr) bool {
	n, progress := 0, true
	ast.Inspect(cond, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.FuncLit:
			progress = false
		case *ast.CallExpr:
			progress = progress && len(x.Args) < 2
		case *ast.BinaryExpr:
			switch x.Op {
			case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
				n++
				progress = progress && (oneObject(info, x.X, x.Y) || readsOtherStatus(info, kind, x.X) || readsOtherStatus(info, kind, x.Y))
			}
		}
		return progress
	})
	return progress && n > 0
}
