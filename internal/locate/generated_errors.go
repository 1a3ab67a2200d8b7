package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// What a hand-written method hands back as its event, read for the
// generated reconciler's requeue rows: a value a test found nil (a
// success), and the errors a helper only combines (its caller's failures).

// testedNilReturn reports whether a return of one value hands back a
// value that a test against nil found nil on every path to the return.
func testedNilReturn(fn *ssa.Function, r *ast.ReturnStmt) bool {
	ret := ssaReturnAt(fn, r)
	return ret != nil && len(ret.Results) == 1 && nilTestAbove(ret, returnedValue(ret)) == testedNil
}

// returnedValue is the value a return of one result hands back, seen
// through conversions between interface types and through the result's
// slot (a named result, or the slot of a function that defers: the value
// stored there in the return's block, unless a closure captures the slot
// and may change it after).
func returnedValue(ret *ssa.Return) ssa.Value {
	return returnedValueOf(resultOf(ret, 0))
}

// capturedSlot reports whether a closure captures a local slot.
func capturedSlot(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.MakeClosure); ok {
			return true
		}
	}
	return false
}

// classifyErrorArgs classifies, at one return, the errors and events a
// call hands to a helper that combinesErrors: one site per class.
func (a *analysis) classifyErrorArgs(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, ce *ast.CallExpr, at ast.Node, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	from := len(*out)
	for _, arg := range ce.Args {
		if t := info.TypeOf(arg); t != nil && isErrorOrEvent(t) {
			a.classifyEvent(fn, info, r, arg, at, sc, seen, out)
		}
	}
	kept := (*out)[:from]
	for _, s := range (*out)[from:] {
		if !slices.ContainsFunc(kept[from:], func(k retSite) bool { return k.pos == s.pos && k.class == s.class }) {
			kept = append(kept, s)
		}
	}
	*out = kept
}

// combinesErrors reports whether an own function returning one value
// takes several errors or events and hands back, at every return, nil or a value
// made from them alone (madeOnlyFrom: one of them, or joined or wrapped
// by a library call): a helper that combines its caller's failures and
// fails on nothing of its own.
func (a *analysis) combinesErrors(fn *ssa.Function) bool {
	b := body(fn)
	if b == nil || fn.Signature.Results().Len() != 1 {
		return false
	}
	info := a.infoAt(b.Pos())
	carried := map[*types.Var]bool{}
	for i := 0; i < fn.Signature.Params().Len(); i++ {
		if p := fn.Signature.Params().At(i); isErrorOrEvent(p.Type()) {
			carried[p] = true
		}
	}
	if len(carried) < 2 {
		// One error handed in and handed back is a branch moved into a
		// helper (or a helper finishing a pass): its returns are its own.
		return false
	}
	combines, some := true, false
	a.eventResults(fn, info, b, scope{}, func(_ *ast.ReturnStmt, e ast.Expr, _ ast.Node, _ scope, settled bool) {
		some = true
		combines = combines && settled && (e == nil || isNil(info, e) || a.madeOnlyFrom(fn, info, e, carried))
	})
	return some && combines
}

// isErrorOrEvent reports whether a value of type t is handed back as an
// error or a reconciler event.
func isErrorOrEvent(t types.Type) bool {
	return isErrorType(t) || typeKey(t) == typeEvent
}

// madeOnlyFrom reports whether every error or event an expression holds
// or makes is one of the variables carried, or a library call handed some
// of them and no other error (errors.Join(a, b), fmt.Errorf("%w", a),
// a.Error() formatted): a call of the tree's own functions, another
// variable or a field may hold a failure of its own.
func (a *analysis) madeOnlyFrom(fn *ssa.Function, info *types.Info, e ast.Expr, carried map[*types.Var]bool) bool {
	ok := true
	check := func(x ast.Expr) bool {
		switch x := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, isVar := info.Uses[x].(*types.Var)
			return isVar && carried[v]
		case *ast.CallExpr:
			if len(a.makeCall(info, x, fn).own) > 0 {
				return false
			}
			return slices.ContainsFunc(x.Args, func(arg ast.Expr) bool { return mentions(info, arg, carried) })
		}
		return false
	}
	ast.Inspect(e, func(n ast.Node) bool {
		x, isExpr := n.(ast.Expr)
		if !ok || !isExpr {
			return ok
		}
		if t := info.TypeOf(x); t == nil || !isErrorOrEvent(t) || isNil(info, x) {
			return true
		}
		ok = check(x)
		return ok
	})
	return ok
}

// equalTested is the value a returned variable was just tested equal to:
// the other side of `id == x` in the condition of an if whose body holds
// the return and does not assign the variable (if err ==
// v1alpha1.REQUEUE_EVENT_AFTER { return err } hands back that value), or
// nil.
func equalTested(info *types.Info, b *ast.BlockStmt, r *ast.ReturnStmt, id *ast.Ident) ast.Expr {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || b == nil {
		return nil
	}
	parents := parentsIn(b)
	for n, p := ast.Node(r), parents[r]; p != nil; n, p = p, parents[p] {
		ifs, ok := p.(*ast.IfStmt)
		if !ok || n != ifs.Body {
			continue
		}
		cond, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || cond.Op != token.EQL {
			continue
		}
		var other ast.Expr
		switch {
		case varNamed(info, cond.X) == v && varNamed(info, cond.Y) != v:
			other = cond.Y
		case varNamed(info, cond.Y) == v && varNamed(info, cond.X) != v:
			other = cond.X
		default:
			continue
		}
		if assignsIn(info, ifs.Body, v) {
			return nil
		}
		return other
	}
	return nil
}

// assignsIn reports whether a block assigns a variable.
func assignsIn(info *types.Info, b *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, lhs := range as.Lhs {
				found = found || assigns(info, lhs, v)
			}
		}
		return !found
	})
	return found
}

// classifyAssigned classifies the event a local variable holds at the
// return r of fn when one assignment settles it there, from the call of a
// function of the tree's (if err = r.finish(ctx, obj); err != nil {
// return err }): that function's events, its requeues after a delay where
// it makes them, its failures at r, which hands them on. A test of
// the variable itself against nil is no condition on them (the event
// tested is the one handed back: a requeue after a delay the helper asks
// for is not made a failure's retry by it); the other conditions around
// the return are.
func (a *analysis) classifyAssigned(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, id *ast.Ident, at ast.Node, seen map[*ssa.Function]bool, out *[]retSite) bool {
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	// (A parameter too, where an assignment in the body settles it.)
	as, settled := a.reachingAssignment(info, r, v)
	if !settled || as == nil || len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, l := range as.Lhs {
		if !assigns(info, l, v) {
			continue
		}
		ce, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr)
		if !ok {
			return false
		}
		if c := a.makeCall(info, ce, fn); c.known || len(c.own) == 0 || mentions(info, ce, map[*types.Var]bool{v: true}) {
			return false // (err = r.finish(ctx, obj, err) hands on what err held before)
		}
		var events []retSite
		a.classifyEvent(fn, info, r, ce, at, a.scopeBeside(info, r, v), seen, &events)
		failed := map[string]bool{}
		for _, e := range events {
			switch e.class {
			case ClassErrorBackoff, ClassTerminal, ClassRetryAfterFailure:
				// A failure the call hands back fails here, at the
				// return that hands it on.
				if !failed[e.class] {
					failed[e.class] = true
					*out = append(*out, retSite{pos: at.Pos(), in: fn, ret: r, at: at, class: e.class, after: e.after, interval: e.interval, bareEvent: e.bareEvent, note: e.note})
				}
			default:
				*out = append(*out, e)
			}
		}
		return true
	}
	return false
}

// scopeBeside is what the conditions around the return r say of it, but
// for the tests of v against nil.
func (a *analysis) scopeBeside(info *types.Info, r *ast.ReturnStmt, v *types.Var) scope {
	var sc scope
	under := func(g guard, cond ast.Expr) {
		sc.guard = max(sc.guard, g)
		sc.terminal = sc.terminal || cond != nil && a.testsTerminal(info, cond)
	}
	child := ast.Node(r)
	for _, n := range a.path(r.Pos(), r.End()) {
		switch x := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return sc
		case *ast.IfStmt:
			if child != x.Init && child != ast.Node(x.Cond) && !nilTestOf(info, x.Cond, v) {
				under(condGuard(info, x.Cond), x.Cond)
			}
		case *ast.ForStmt, *ast.RangeStmt, *ast.CommClause:
			under(guardOther, nil)
		case *ast.CaseClause:
			under(guardOther, nil)
			for _, e := range x.List {
				under(condGuard(info, e), e)
			}
		}
		child = n
	}
	return sc
}

// nilTestOf reports whether cond is v != nil or v == nil.
func nilTestOf(info *types.Info, cond ast.Expr, v *types.Var) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ && be.Op != token.EQL {
		return false
	}
	x, y := ast.Unparen(be.X), ast.Unparen(be.Y)
	if isNil(info, x) {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	return ok && isNil(info, y) && info.Uses[id] == v
}
