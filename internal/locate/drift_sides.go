package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The sides of a comparison that read no desired state: two values of one
// live object (its generation against its observed generation: whether
// that object's own controller has caught up), and the status of an object
// (what its controller observed: a rollout's progress, a revision reached;
// or the primary's record of what was last done), which the controller
// waits on or keeps its books by, never a desired state it applies.

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

// readsAnyStatus reports whether an expression reads the Status of an
// object (ss.Status.CurrentRevision, obj.Status.LastAttemptedRevision):
// what a controller observed or recorded, the primary's own bookkeeping
// among it, never the desired state.
func readsAnyStatus(info *types.Info, e ast.Expr) bool {
	obj, sel := objectAt(info, e)
	if obj == nil || sel == nil || sel.Sel.Name != statusField {
		return false
	}
	s := info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal
}

// progressOnly reports whether every comparison a condition makes of two
// values (at least one; tests of nil and errors aside) tests progress: two values of one object, or another
// object's status; and it calls nothing handed two values.
func progressOnly(info *types.Info, cond ast.Expr) bool {
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
				if !comparedValue(info, x.X) || !comparedValue(info, x.Y) {
					return true // a test of nil or of an error
				}
				n++
				progress = progress && testsProgress(info, x)
			}
		}
		return progress
	})
	return progress && n > 0
}

// testsProgress reports whether a comparison reads two values of one
// object, or an object's status.
func testsProgress(info *types.Info, x *ast.BinaryExpr) bool {
	return oneObject(info, x.X, x.Y) || readsAnyStatus(info, x.X) || readsAnyStatus(info, x.Y)
}
