package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// emptyDiffTest reports whether cond holds when a difference rendered
// between two objects (a knowledge entry marked Diff: a merge patch) is
// empty: string(patch) == "{}", len(patch) == 0, patch == "", the
// variable's every assignment in body that rendering. On a pass of an
// unchanged object the pass computes nothing new, and the test holds.
func (a *analysis) emptyDiffTest(info *types.Info, body *ast.BlockStmt, cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return false
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		tv, ok := info.Types[pair[1]]
		if !ok || tv.Value == nil {
			continue
		}
		x := ast.Unparen(pair[0])
		empty := false
		switch tv.Value.Kind() {
		case constant.String:
			v := constant.StringVal(tv.Value)
			empty = v == "{}" || v == ""
			if ce, ok := x.(*ast.CallExpr); ok && len(ce.Args) == 1 && info.Types[ce.Fun].IsType() {
				x = ast.Unparen(ce.Args[0])
			}
		case constant.Int:
			if n, exact := constant.Int64Val(tv.Value); exact && n == 0 {
				if ce, ok := x.(*ast.CallExpr); ok && len(ce.Args) == 1 && isBuiltin(info, ce.Fun, "len") {
					x, empty = ast.Unparen(ce.Args[0]), true
				}
			}
		}
		if empty && a.renderedDiff(info, body, x) {
			return true
		}
	}
	return false
}

// renderedDiff reports whether e is a variable every assignment of which
// in body is a rendered difference (a call of a Diff entry, or its first
// result).
func (a *analysis) renderedDiff(info *types.Info, body *ast.BlockStmt, e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v := varOf(info, id)
	all := assignmentsTo(info, body, v)
	if v == nil || len(all) == 0 {
		return false
	}
	for _, as := range all {
		ce, ok := ast.Unparen(as).(*ast.CallExpr)
		if !ok {
			return false
		}
		if c := a.makeCall(info, ce, nil); !c.known || !c.fact.Diff {
			return false
		}
	}
	return true
}
