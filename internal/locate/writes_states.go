package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// A controller run as a state machine keeps its object's state in a field
// of the object (obj.Status.Phase) and works only in some states: a pass
// that finds the object in any other state does nothing. The states the
// controller's own pass moves the object to (the constants it writes to
// that field) are where an unchanged object rests, so a branch such a
// state selects, doing nothing, ends the pass of an unchanged object.

// primaryField is the field a selection reads when the selection is made
// on the primary object, at any depth (obj.Status.Phase, with obj of the
// primary's type), or nil.
func primaryField(info *types.Info, e ast.Expr, kind *types.Named) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || kind == nil {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return nil
	}
	for x := sel.X; x != nil; {
		if n, ok := deref(info.TypeOf(x)).(*types.Named); ok && types.Identical(n, kind) {
			return s.Obj().(*types.Var).Origin()
		}
		inner, ok := ast.Unparen(x).(*ast.SelectorExpr)
		if !ok {
			break
		}
		x = inner.X
	}
	return nil
}

// writtenStates are the constants the reached functions of the tree's own
// assign to field (obj.Status.Phase = Done), but under the branch of a
// test that found an error: the states a pass that does not fail moves
// its object to.
func (a *analysis) writtenStates(reach *callgraph.Reach, field *types.Var) []constant.Value {
	var out []constant.Value
	a.stateStores(reach, func(info *types.Info, _ *ast.BlockStmt, lhs, rhs ast.Expr) {
		sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr)
		if !ok {
			return
		}
		if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.Origin() == field {
			out = append(out, info.Types[rhs].Value)
		}
	})
	return out
}

// stateStores visits the stores of a constant (lhs = rhs, rhs constant)
// in the reached functions of the tree's own, each body once, but those
// under the branch of a test that found an error.
func (a *analysis) stateStores(reach *callgraph.Reach, visit func(info *types.Info, body *ast.BlockStmt, lhs, rhs ast.Expr)) {
	a.eachOwnBody(reach, func(info *types.Info, b *ast.BlockStmt) bool {
		parents := parentsIn(b)
		ast.Inspect(b, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if info.Types[as.Rhs[i]].Value != nil && !underErrorTest(info, parents, as) {
					visit(info, b, l, as.Rhs[i])
				}
			}
			return true
		})
		return true
	})
}

// eachOwnBody calls visit with the body of each reached function of the
// tree's own, once a body (the instances of a generic function share
// theirs), and its type information, until visit returns false.
func (a *analysis) eachOwnBody(reach *callgraph.Reach, visit func(info *types.Info, body *ast.BlockStmt) bool) {
	seen := map[token.Pos]bool{}
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil || !a.prog.Own[fn] || seen[b.Pos()] {
			continue
		}
		seen[b.Pos()] = true
		if info := a.infoAt(b.Pos()); info != nil && !visit(info, b) {
			return
		}
	}
}

// underErrorTest reports whether a node lies in the branch an if takes
// when its condition found an error (parents from parentsIn).
func underErrorTest(info *types.Info, parents map[ast.Node]ast.Node, n ast.Node) bool {
	for child, p := n, parents[n]; p != nil; child, p = p, parents[p] {
		ifs, ok := p.(*ast.IfStmt)
		if !ok {
			continue
		}
		body, els := branchGuards(info, ifs.Cond)
		if child == ifs.Body && body == guardError || child == ifs.Else && els == guardError {
			return true
		}
	}
	return false
}

// sameConst reports whether two constants are of one kind and equal.
func sameConst(x, y constant.Value) bool {
	return x.Kind() == y.Kind() && x.Kind() != constant.Unknown && constant.Compare(x, token.EQL, y)
}

// clauseTaken is the clause of a switch on a tag that a constant value of
// the tag selects: the first case listing it, else the default clause; nil
// when a case before it is not a constant (what it selects is not known).
func clauseTaken(info *types.Info, sw *ast.SwitchStmt, v constant.Value) *ast.CaseClause {
	var def *ast.CaseClause
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		for _, e := range cc.List {
			tv := info.Types[e]
			if tv.Value == nil {
				return nil
			}
			if sameConst(tv.Value, v) {
				return cc
			}
		}
	}
	return def
}

// stateComparison is the field of the primary a comparison tests against a
// constant (obj.Status.Phase == Done), with the constant, or nil.
func stateComparison(info *types.Info, e ast.Expr, kind *types.Named) (*types.Var, constant.Value) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL && b.Op != token.NEQ {
		return nil, nil
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		if tv := info.Types[ast.Unparen(pair[1])]; tv.Value != nil {
			if f := primaryField(info, pair[0], kind); f != nil {
				return f, tv.Value
			}
		}
	}
	return nil, nil
}

// holdsWhen evaluates a condition made of tests of one state against
// constants (joined by &&, || and !) with that state holding v; ok is
// false when the condition tests anything else. test reads one comparison:
// the state it tests (a field of the primary, an entry of its labels) and
// the constant it compares with, or nil.
func holdsWhen(cond ast.Expr, state any, v constant.Value, test func(*ast.BinaryExpr) (any, constant.Value)) (holds, ok bool) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			h, ok := holdsWhen(e.X, state, v, test)
			return !h, ok
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			x, okX := holdsWhen(e.X, state, v, test)
			y, okY := holdsWhen(e.Y, state, v, test)
			if e.Op == token.LAND {
				return x && y, okX && okY
			}
			return x || y, okX && okY
		case token.EQL, token.NEQ:
			s, k := test(e)
			if s == nil || s != state || k.Kind() != v.Kind() {
				return false, false
			}
			return sameConst(k, v) == (e.Op == token.EQL), true
		}
	}
	return false, false
}

// reachedState reports whether a condition tests a state of the primary
// against constants (a field, or an entry of its labels or annotations)
// and holds in a state the controller's pass writes there, or tests that
// an entry the pass stores is there (markTest), or a field of its status
// the pass sets (presenceTest): an object the controller has moved there
// takes the branch. every says it holds in each state the pass writes
// there: an object resting in any of them takes it. When it holds in only
// some, an object may rest in one of the others, whose pass goes on past
// it. body is the function's.
func (a *analysis) reachedState(info *types.Info, body *ast.BlockStmt, cond ast.Expr, kind *types.Named, reach *callgraph.Reach) (reached, every bool) {
	if reach == nil {
		return false, false
	}
	if key, whenSet := a.markTest(info, body, cond, kind); key != "" {
		reached = whenSet && a.marked(reach, kind, key)
		return reached, reached
	}
	if field, whenSet := presenceTest(info, cond, kind); field != nil {
		reached = whenSet && a.setsField(reach, field)
		return reached, reached
	}
	fieldTest := func(b *ast.BinaryExpr) (any, constant.Value) {
		if f, k := stateComparison(info, b, kind); f != nil {
			return f, k
		}
		return nil, nil
	}
	entryTest := func(b *ast.BinaryExpr) (any, constant.Value) {
		if key, k := a.entryComparison(info, b, kind); key != "" {
			return key, k
		}
		return nil, nil
	}
	for _, test := range []func(*ast.BinaryExpr) (any, constant.Value){fieldTest, entryTest} {
		var state any
		ast.Inspect(cond, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok && state == nil {
				state, _ = test(b)
			}
			return state == nil
		})
		if state == nil {
			continue
		}
		var written []constant.Value
		switch st := state.(type) {
		case *types.Var:
			written = a.writtenStates(reach, st)
		case string:
			written = a.writtenEntries(reach, kind, st)
		}
		every = true
		for _, v := range written {
			holds, ok := holdsWhen(cond, state, v, test)
			if ok && holds {
				reached = true
			} else {
				every = false
			}
		}
		if reached {
			return true, every
		}
	}
	return false, false
}

// stateClauses are the clauses of a switch on a field of the primary
// (switch obj.Status.Phase) that a state the controller's pass writes to
// that field selects; every says each such state selects one (none falls
// through the switch).
func (a *analysis) stateClauses(info *types.Info, sw *ast.SwitchStmt, kind *types.Named, reach *callgraph.Reach) (clauses map[*ast.CaseClause]bool, every bool) {
	out := map[*ast.CaseClause]bool{}
	field := primaryField(info, sw.Tag, kind)
	if field == nil || reach == nil {
		return out, false
	}
	every = true
	for _, v := range a.writtenStates(reach, field) {
		if cc := clauseTaken(info, sw, v); cc != nil {
			out[cc] = true
		} else {
			every = false
		}
	}
	return out, every
}

// A controller that acts on a schedule records on its object when it acts
// next (obj.Status.NextRun) and, before then, only waits: a pass that finds
// the recorded time still ahead of the clock requeues for it and does
// nothing else. That wait ends the pass of an unchanged object, even when a
// pass that acts requeues too.

// notDue reports whether a condition orders a time read from a field of
// the primary against the clock's (next.After(now), now.Before(next)):
// the object's own record of when it acts next, not yet reached. body is
// the function's, whose locals the operands may be read through.
func (a *analysis) notDue(info *types.Info, body *ast.BlockStmt, cond ast.Expr, kind *types.Named) bool {
	ce, ok := ast.Unparen(cond).(*ast.CallExpr)
	if !ok {
		return false
	}
	c := a.makeCall(info, ce, nil)
	sel, isMethod := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	if !c.known || c.fact.Role != RoleTimeOrder || !isMethod || c.fact.Arg >= len(ce.Args) {
		return false
	}
	x, y := sel.X, ce.Args[c.fact.Arg]
	return readsPrimaryTime(info, body, x, kind) && a.readsClock(info, body, y) ||
		a.readsClock(info, body, x) && readsPrimaryTime(info, body, y, kind)
}

// readsPrimaryTime reports whether e is a field of the primary, or a local
// assigned nothing else.
func readsPrimaryTime(info *types.Info, body *ast.BlockStmt, e ast.Expr, kind *types.Named) bool {
	return everyValue(info, body, e, func(v ast.Expr) bool { return primaryField(info, v, kind) != nil })
}

// readsClock reports whether e is the clock's reading, or a local assigned
// nothing else.
func (a *analysis) readsClock(info *types.Info, body *ast.BlockStmt, e ast.Expr) bool {
	return everyValue(info, body, e, func(v ast.Expr) bool {
		ce, ok := ast.Unparen(v).(*ast.CallExpr)
		if !ok {
			return false
		}
		c := a.makeCall(info, ce, nil)
		return c.known && c.fact.Role == RoleClock
	})
}

// everyValue reports whether is holds of e, or, when e is a local
// variable (taken by value or by address), of every value body assigns it.
func everyValue(info *types.Info, body *ast.BlockStmt, e ast.Expr, is func(ast.Expr) bool) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if is(e) {
		return true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || body == nil {
		return false
	}
	rhs := assignmentsTo(info, body, v)
	for _, r := range rhs {
		if !is(r) {
			return false
		}
	}
	return len(rhs) > 0
}

// waitsOnly reports whether a branch of fn (list, ending in a return) does
// nothing but log before returning a nil error with a result that only
// asks to come back after a delay (ctrl.Result{RequeueAfter: d}), written
// in the return or assigned to the named results of a bare one.
func (a *analysis) waitsOnly(info *types.Info, fn *ssa.Function, list []ast.Stmt) bool {
	results, before, ok := returnedBy(info, fn, list)
	if !ok || len(results) != 2 || !isNil(info, results[1]) || !a.onlyLogs(info, fn, before) {
		return false
	}
	lit, ok := ast.Unparen(results[0]).(*ast.CompositeLit)
	if !ok || !isResultLiteral(info, lit) || len(lit.Elts) != 1 {
		return false
	}
	kv, ok := lit.Elts[0].(*ast.KeyValueExpr)
	key, _ := kv.Key.(*ast.Ident)
	return ok && key != nil && key.Name == "RequeueAfter"
}
