package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
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
	return firstStore(bodies, sp, func(b *flowBody, lhs, rhs ast.Expr) bool {
		return a.primaryStatus(b.info, kind, lhs) && holdsConditions(b.info.TypeOf(lhs), 0) && carriesConditions(kind, fl.values(b, rhs, "Conditions"))
	})
}

// firstStore is the first assignment (lhs = rhs, one value each, or each
// of a call's results: list, ok = merge(…)), in the bodies and where the
// spans hold, that match accepts.
func firstStore(bodies []*flowBody, sp spans, match func(b *flowBody, lhs, rhs ast.Expr) bool) (token.Pos, bool) {
	at := token.NoPos
	for _, b := range bodies {
		ast.Inspect(b.block(), func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || at.IsValid() || len(as.Lhs) != len(as.Rhs) && len(as.Rhs) != 1 {
				return !at.IsValid()
			}
			for i, lhs := range as.Lhs {
				// (A tuple's results, list, ok = merge(…), are each the
				// call's.)
				rhs := as.Rhs[min(i, len(as.Rhs)-1)]
				if sp.holds(b, as.Pos()) && match(b, lhs, rhs) {
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

// A controller may also keep the status it builds in a holder of its own
// (reconciler.Status{S: obj.Status.GenericStatus, UpdateFunc: …}) whose
// methods append conditions to the holder's copy, and copy it back
// through a callback. The engine does not tie such a copy to the primary;
// a condition stored in a value of a type the primary's status holds its
// conditions in is a candidate it cannot settle.

// heldConditionStore is the first store, in a function on the reconcile
// path, into the conditions list of a value of a struct type that the
// primary's status holds its conditions in (its own status type, or a
// status shared between kinds it embeds).
func (a *analysis) heldConditionStore(kind *types.Named, bodies []*flowBody, sp spans) (token.Pos, bool) {
	holders := conditionHolders(kind)
	if len(holders) == 0 {
		return token.NoPos, false
	}
	return firstStore(bodies, sp, func(b *flowBody, lhs, rhs ast.Expr) bool {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		// An object of the primary kind's own status is the flow's to
		// follow; an empty list sets no condition.
		if !ok || !isConditionSlice(b.info.TypeOf(sel)) || readsStatusOf(b.info, sel.X, kind) || emptyList(b.info, rhs) {
			return false
		}
		n, ok := deref(b.info.TypeOf(sel.X)).(*types.Named)
		return ok && slices.ContainsFunc(holders, func(h *types.Named) bool { return types.Identical(h, n) })
	})
}

// heldParamCondition is the first condition set, in a function on the
// reconcile path, on a parameter of that function whose type is one the
// primary's status holds its conditions in (a callback handed
// `*KindStatus` by a helper that reads the object afresh and writes it
// back): a candidate the flow does not tie to the primary. It gives the
// set's position and the parameter.
func heldParamCondition(kind *types.Named, flow *condFlow, bodies []*flowBody, sp spans) (token.Pos, *types.Var, bool) {
	holders := conditionHolders(kind)
	for _, b := range bodies {
		for _, eff := range flow.summary(b).effects {
			if eff.target < 0 || eff.target >= len(b.params) || !eff.typ.settled() || !sp.holds(b, eff.site) {
				continue
			}
			p := b.params[eff.target]
			if n, ok := deref(p.Type()).(*types.Named); ok && slices.ContainsFunc(holders, func(h *types.Named) bool { return types.Identical(h, n) }) {
				return eff.site, p, true
			}
		}
	}
	return heldCallbackCondition(holders, bodies)
}

// heldCallbackCondition is heldParamCondition for a function literal
// made in a function on the reconcile path whose call the path does not
// show (a mutate callback handed to a helper that runs it inside a retry):
// its parameter of a holder type, whose conditions list it hands to a call
// by address (meta.SetStatusCondition(&status.Conditions, …)) or assigns.
func heldCallbackCondition(holders []*types.Named, bodies []*flowBody) (token.Pos, *types.Var, bool) {
	holds := func(t types.Type) bool {
		n, ok := deref(t).(*types.Named)
		return ok && slices.ContainsFunc(holders, func(h *types.Named) bool { return types.Identical(h, n) })
	}
	for _, b := range bodies {
		var at token.Pos
		var param *types.Var
		ast.Inspect(b.block(), func(n ast.Node) bool {
			lit, ok := n.(*ast.FuncLit)
			if !ok || at.IsValid() {
				return !at.IsValid()
			}
			for _, f := range lit.Type.Params.List {
				for _, id := range f.Names {
					v, _ := b.info.Defs[id].(*types.Var)
					if v == nil || !holds(v.Type()) {
						continue
					}
					if site := conditionsTouched(b.info, lit.Body, v); site.IsValid() {
						at, param = site, v
						return false
					}
				}
			}
			return true
		})
		if at.IsValid() {
			return at, param, true
		}
	}
	return token.NoPos, nil, false
}

// conditionsTouched is the first place in body that hands v's conditions
// list to a call by address or assigns it.
func conditionsTouched(info *types.Info, body *ast.BlockStmt, v *types.Var) token.Pos {
	isList := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok || !isConditionSlice(info.TypeOf(sel)) {
			return false
		}
		id, ok := ast.Unparen(sel.X).(*ast.Ident)
		return ok && info.Uses[id] == v
	}
	at := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, arg := range n.Args {
				if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND && isList(u.X) {
					at = n.Pos()
				}
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if isList(l) {
					at = n.Pos()
				}
			}
		}
		return !at.IsValid()
	})
	return at
}

// conditionHolders are the named struct types, from the primary's status
// type down (three fields deep), that hold a conditions list as a field
// of their own.
func conditionHolders(kind *types.Named) []*types.Named {
	if kind == nil {
		return nil
	}
	f, _, _ := types.LookupFieldOrMethod(kind, true, kind.Obj().Pkg(), statusField)
	v, ok := f.(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	var out []*types.Named
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		n, ok := deref(t).(*types.Named)
		if !ok || depth > 3 || slices.ContainsFunc(out, func(h *types.Named) bool { return types.Identical(h, n) }) {
			return
		}
		st, ok := n.Underlying().(*types.Struct)
		if !ok {
			return
		}
		for i := 0; i < st.NumFields(); i++ {
			if isConditionSlice(st.Field(i).Type()) {
				out = append(out, n)
				break
			}
		}
		for i := 0; i < st.NumFields(); i++ {
			walk(st.Field(i).Type(), depth+1)
		}
	}
	walk(v.Type(), 0)
	return out
}

// emptyList reports whether e is nil or a composite literal with no
// elements.
func emptyList(info *types.Info, e ast.Expr) bool {
	if isNil(info, e) {
		return true
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && len(lit.Elts) == 0
}
