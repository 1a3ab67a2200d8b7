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
				if a.primaryStatus(b.info, kind, lhs) && holdsConditions(b.info.TypeOf(lhs), 0) && sp.holds(b, as.Pos()) && carriesConditions(kind, fl.values(b, as.Rhs[i], "Conditions")) {
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
// hold include one that is neither empty, nor read from an object, nor
// what a parameter holding an object of the kind or its status hands over
// (a copy of an object's own status: DeepCopyInto, a status the caller
// computed, whose conditions the caller's sets account for).
func carriesConditions(kind *types.Named, vals []flowVal) bool {
	for _, v := range vals {
		if v.zero || v.external {
			continue
		}
		if v.param >= 0 && v.b != nil && v.param < len(v.b.params) && v.b.params[v.param] != nil && ownStatusHolder(kind, v.b.params[v.param].Type()) {
			continue
		}
		return true
	}
	return false
}

// ownStatusHolder reports whether t is the kind, its status type, or a
// pointer to either.
func ownStatusHolder(kind *types.Named, t types.Type) bool {
	n, ok := deref(t).(*types.Named)
	return ok && types.Identical(n, kind) || isStatusOf(kind, t)
}
