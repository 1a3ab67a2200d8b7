package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// A controller may collect the conditions of a pass in a value of its own
// (a reporter whose ReportCondition merges each into a list it keeps) and
// merge that list into a status it then assigns to the object whole
// (obj.Status = reporter.Merge(obj.Status)). The summaries read stores
// into a conditions list; a status assigned whole brings whatever
// conditions its value holds, so where that value's conditions are not a
// copy of the object's own, or none, a condition may be set there.

// wholeStatusStore is the first assignment, in a function on the reconcile
// path, of the primary's Status whole from a value whose conditions the
// engine does not settle to none or to a copy of an object's own.
func (a *analysis) wholeStatusStore(kind *types.Named, bodies []*flowBody, sp spans) (token.Pos, bool) {
	if kind == nil {
		return token.NoPos, false
	}
	fl := &flowEngine{a: a}
	at := token.NoPos
	for _, b := range bodies {
		ast.Inspect(b.block(), func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || at.IsValid() || len(as.Lhs) != len(as.Rhs) {
				return !at.IsValid()
			}
			for i, lhs := range as.Lhs {
				if a.primaryStatus(b.info, kind, lhs) && sp.holds(b, as.Pos()) && carriesConditions(fl.values(b, as.Rhs[i], "Conditions")) {
					at = as.Pos()
					return false
				}
			}
			return true
		})
		if at.IsValid() {
			return at, true
		}
	}
	return at, false
}

// primaryStatus reports whether e selects the Status field of a value of
// the primary kind (obj.Status, s.cluster.Status).
func (a *analysis) primaryStatus(info *types.Info, kind *types.Named, e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != statusField {
		return false
	}
	if s := info.Selections[sel]; s == nil || s.Kind() != types.FieldVal {
		return false
	}
	n, ok := deref(info.TypeOf(sel.X)).(*types.Named)
	return ok && types.Identical(n, kind)
}

// carriesConditions reports whether the values a status's conditions may
// hold include one that is neither empty nor read from an object.
func carriesConditions(vals []flowVal) bool {
	for _, v := range vals {
		if !v.zero && !v.external {
			return true
		}
	}
	return false
}
