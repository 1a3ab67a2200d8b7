package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// normalReturns finds, for each reached function, the returns a pass that
// succeeds ends with: in the entry, the success returns (or the nil-error
// returns after the re-read); elsewhere the nil-error returns, or every
// return when no return is known to succeed. open are the steady-state
// early returns among them that an unchanged object's pass is not known
// to take (steadyReturns).
func (a *analysis) normalReturns(f *found, kind *types.Named, reach *callgraph.Reach, successPos []token.Pos, reread token.Pos) (normals map[*ssa.Function][]*ssa.Return, open map[*ssa.Return]openEnd) {
	out := map[*ssa.Function][]*ssa.Return{}
	open = map[*ssa.Return]openEnd{}
	entryReturns := func(fn *ssa.Function, all, nilErr []*ssa.Return, reread token.Pos) []*ssa.Return {
		rs, ends := a.entryReturns(fn, kind, reach, all, nilErr, successPos, reread)
		maps.Copy(open, ends)
		return rs
	}
	for _, fn := range reach.Funcs() {
		all := blockReturns(fn)
		nilErr := a.succeedingReturns(all, map[*ssa.Function]bool{fn: true})
		normal := all
		if len(nilErr) > 0 {
			normal = nilErr
		} else if ok := slices.DeleteFunc(slices.Clone(all), failing); len(ok) > 0 {
			normal = ok
		}
		if fn == f.entry {
			normal = entryReturns(fn, all, nilErr, reread)
		}
		out[fn] = normal
	}
	// A function whose normal return hands back an own function's result
	// delegates the rest of its pass to it (`if err == nil { return
	// r.reconcileX(ctx, obj) }`, or a tail call): the delegate's body
	// continues the entry's, so its normal returns are read as the
	// entry's are, the returns at the top level of its body and the
	// steady-state early returns, not every nil-error return of a helper.
	// So does a function whose error a closure the entry defers keeps
	// (defer func() { if err := r.report(ctx); err != nil { … } }()): the
	// pass ends in it, as it would in a tail call. And so does one the
	// entry calls on every pass and whose error it hands back
	// (errorDelegates): the pass succeeds only when that call did.
	seen := map[*ssa.Function]bool{f.entry: true}
	queue := []*ssa.Function{f.entry}
	// A generated reconciler's ReconcileKind is read as the entry is:
	// every pass of a live object runs it.
	for root := range a.passRoots(f) {
		if root == f.entry || !reach.Has(root) {
			continue
		}
		all := blockReturns(root)
		if rs := entryReturns(root, all, a.succeedingReturns(all, map[*ssa.Function]bool{root: true}), token.NoPos); len(rs) > 0 {
			out[root] = rs
		}
		seen[root] = true
		queue = append(queue, root)
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		var delegates []*ssa.Function
		for _, r := range out[fn] {
			delegates = append(delegates, a.delegateOf(r))
		}
		delegates = append(delegates, a.errorDelegates(fn, out[fn])...)
		for _, d := range append(delegates, a.deferredDelegates(fn)...) {
			if d == nil || seen[d] || !a.prog.Own[d] || !reach.Has(d) {
				continue
			}
			seen[d] = true
			all := blockReturns(d)
			if rs := entryReturns(d, all, a.succeedingReturns(all, map[*ssa.Function]bool{d: true}), token.NoPos); len(rs) > 0 {
				out[d] = rs
			}
			queue = append(queue, d)
		}
	}
	return out, open
}

// blockReturns lists the returns ending a function's blocks but the
// recover block's: a function that defers returns from there only after a
// panic, never at the end of a pass.
func blockReturns(fn *ssa.Function) []*ssa.Return {
	var out []*ssa.Return
	for _, b := range fn.Blocks {
		if b == fn.Recover {
			continue
		}
		if r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			out = append(out, r)
		}
	}
	return out
}

// entryReturns narrows the entry's normal returns to the success returns,
// or to the returns at the top level of its body (as a pass of a live
// object runs it: liveList) that come after the re-read (a pass that finds no object, or stops under a condition, ends
// early), those returning a nil error first, with the steady-state early
// returns (steadyReturns): a pass of an unchanged object may end there;
// open are those of them it is not known to end at.
func (a *analysis) entryReturns(fn *ssa.Function, kind *types.Named, reach *callgraph.Reach, all, nilErr []*ssa.Return, successPos []token.Pos, reread token.Pos) (rs []*ssa.Return, open map[*ssa.Return]openEnd) {
	reread = a.readRunsAt(fn, reach, reread)
	var success []*ssa.Return
	for _, r := range all {
		if slices.Contains(successPos, r.Pos()) {
			success = append(success, r)
		}
	}
	if len(success) > 0 {
		// A pass that finds the object's next time still ahead only
		// waits for it, though a pass that acts requeues too.
		_, waits, _ := a.steadyReturns(fn, kind, reach, reread)
		for _, r := range all {
			if waits[r.Pos()] && !slices.Contains(success, r) {
				success = append(success, r)
			}
		}
		return success, nil
	}
	unguarded := map[token.Pos]bool{}
	if b := body(fn); b != nil {
		info := a.infoAt(b.Pos())
		live := &ast.BlockStmt{List: a.liveList(info, fn, b.List, kind)}
		a.walkReturns(info, live, scope{}, func(r *ast.ReturnStmt, sc scope) {
			if sc.guard == guardNone {
				unguarded[r.Pos()] = true
			}
		})
	}
	readBlock := a.blockRunning(fn, reread)
	pick := func(rs []*ssa.Return) []*ssa.Return {
		var out []*ssa.Return
		for _, r := range rs {
			if unguarded[r.Pos()] && (readBlock == nil || readBlock.Dominates(r.Block())) {
				out = append(out, r)
			}
		}
		return out
	}
	rs = pick(nilErr)
	if len(rs) == 0 {
		rs = pick(all)
	}

	if len(rs) == 0 {
		return rs, nil
	}
	idles, waits, ends := a.steadyReturns(fn, kind, reach, reread)
	open = map[*ssa.Return]openEnd{}
	for _, r := range all {
		if (idles[r.Pos()] || waits[r.Pos()]) && !slices.Contains(rs, r) && (readBlock == nil || readBlock.Dominates(r.Block())) {
			rs = append(rs, r)
			if e, ok := ends[r.Pos()]; ok {
				open[r] = e
			}
		}
	}
	return rs, open
}

// steadyReturns finds the entry's early returns a pass of an unchanged
// object may end with, at the top level of its body after the re-read:
// the return closing an if (or a tagless switch's case) whose branch does
// nothing but log before returning success with nothing to requeue (a
// zero Result, a nil error), when its condition holds while the object is
// not being deleted (a controller that acts only on deletion ends an
// unchanged object's pass there), or reads live state (a field of an
// object other than the primary's Spec, or a value computed from one:
// "already done", "nothing to do") and tests no error nor the deletion
// timestamp. A branch that writes or changes something ends a pass that
// changed the object, and a condition on the primary's Spec alone
// (suspended) is not the steady state of an object that is reconciled.
// A branch that a state the controller moves its object to takes
// (writtenStates: an if on obj.Status.Phase, or that state's clause of a
// switch on it) ends an unchanged object's pass too, when it only logs.
//
// Of the idle returns, open are those an unchanged object's pass is not
// known to take (openEnd): a test of live state, or of a state the pass
// also moves the object to states the test lets go on.
func (a *analysis) steadyReturns(fn *ssa.Function, kind *types.Named, reach *callgraph.Reach, reread token.Pos) (idles, waits map[token.Pos]bool, open map[token.Pos]openEnd) {
	idles, waits, open = map[token.Pos]bool{}, map[token.Pos]bool{}, map[token.Pos]openEnd{}
	b := body(fn)
	if b == nil {
		return idles, waits, open
	}
	info := a.infoAt(b.Pos())
	if info == nil {
		return idles, waits, open
	}
	// idle marks the return closing a branch taken under cond, when the
	// branch only logs and returns success with nothing to requeue, or
	// only waits for the time the object records (notDue).
	idle := func(cond ast.Expr, list []ast.Stmt) {
		if len(list) == 0 || cond == nil {
			return
		}
		ret, ok := list[len(list)-1].(*ast.ReturnStmt)
		if !ok {
			return
		}
		if (a.notDue(info, b, cond, kind) || a.helperNotDue(info, fn, b, cond, list, kind)) && a.waitsOnly(info, fn, list) {
			waits[ret.Pos()] = true
			return
		}
		// An object that is not being deleted is the steady state: a
		// controller that acts only on deletion ends its pass there.
		if a.deletionTest(info, cond, kind) < 0 && a.idleBranch(info, fn, list, 0) {
			idles[ret.Pos()] = true
			return
		}
		// A state the controller moves its object to (writtenStates).
		if reached, every := a.reachedState(info, b, cond, kind, reach); reached && a.idleBranch(info, fn, list, 0) {
			idles[ret.Pos()] = true
			if !every {
				open[ret.Pos()] = openEnd{test: cond.Pos(), why: openState}
			}
			return
		}
		// The difference between the object and what the pass made of
		// it is empty: nothing changed.
		if a.emptyDiffTest(info, b, cond) && a.idleBranch(info, fn, list, 0) {
			idles[ret.Pos()] = true
			return
		}
		if condGuard(info, cond) != guardOther || a.testsDeletion(info, cond) || a.deletionTest(info, cond, kind) != 0 || testsFieldValue(info, cond) || testsAbsent(info, cond, kind) {
			return
		}
		if (a.readsLive(info, b, kind, cond, nil, map[*types.Var]bool{}) || a.flagReadsLive(info, b, kind, cond)) && a.idleBranch(info, fn, list, 0) {
			idles[ret.Pos()] = true
			if a.testsUnwritten(info, cond, kind, reach) {
				open[ret.Pos()] = openEnd{test: cond.Pos(), why: openLive}
			}
		}
	}
	// A read made in a helper (reread outside the body) leaves every
	// statement of the body after it.
	if reread < b.Pos() || reread >= b.End() {
		reread = token.NoPos
	}
	var scan func(list []ast.Stmt)
	scan = func(list []ast.Stmt) {
		for _, st := range list {
			if reread.IsValid() && st.Pos() < reread {
				continue
			}
			switch st := st.(type) {
			case *ast.IfStmt:
				// An if, or each link of an else-if chain (if err != nil
				// {…} else if string(patch) == "{}" { return nil } else
				// {…}): a pass that takes its body ends there.
				for link := st; link != nil; {
					idle(link.Cond, link.Body.List)
					link, _ = link.Else.(*ast.IfStmt)
				}
			case *ast.SwitchStmt:
				if st.Tag == nil {
					// A tagless switch whose case leaves the object as it is.
					for _, cl := range st.Body.List {
						if cc := cl.(*ast.CaseClause); len(cc.List) > 0 {
							idle(cc.List[0], cc.Body)
						}
					}
					continue
				}
				// A switch on the object's state: the clause of a state the
				// controller moves it to leaves it as it is, or holds the
				// early returns of that state's passes.
				clauses, every := a.stateClauses(info, st, kind, reach)
				var idleClauses []*ast.CaseClause
				for cc := range clauses {
					if len(cc.Body) > 0 && a.idleBranch(info, fn, cc.Body, 0) {
						idles[cc.Body[len(cc.Body)-1].Pos()] = true
						idleClauses = append(idleClauses, cc)
					} else {
						every = false
						scan(cc.Body)
					}
				}
				if !every {
					for _, cc := range idleClauses {
						open[cc.Body[len(cc.Body)-1].Pos()] = openEnd{test: st.Tag.Pos(), why: openState}
					}
				}
			}
		}
	}
	scan(a.liveList(info, fn, b.List, kind))
	return idles, waits, open
}

// openEnd is an idle return (steadyReturns) that an unchanged object's
// pass is not known to take: the test before it, and why.
type openEnd struct {
	test token.Pos
	why  string
}

// Why an unchanged object's pass may go on past an idle return.
const (
	openLive  = "it tests a field of another object that the pass never writes, which the code does not settle"
	openState = "it tests the state the object rests in, and the pass also moves it to states that go on past it"
)

// maxIdleHelpers bounds the helpers a branch is followed into when it
// returns through one.
const maxIdleHelpers = 2

// idleBranch reports whether a branch of fn (list, ending in a return)
// does nothing but log before returning success with nothing to requeue:
// written so, or as named results assigned so just before a bare return,
// or through the call of an own function whose body is such a branch (a
// branch extracted into a helper).
func (a *analysis) idleBranch(info *types.Info, fn *ssa.Function, list []ast.Stmt, depth int) bool {
	results, before, ok := returnedBy(info, fn, list)
	if !ok || !a.onlyLogs(info, fn, before) {
		return false
	}
	if succeedsIdle(info, &ast.ReturnStmt{Results: results}) {
		return true
	}
	if len(results) != 1 || depth >= maxIdleHelpers {
		return false
	}
	ce, ok := ast.Unparen(results[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	c := a.makeCall(info, ce, fn)
	if c.known || len(c.own) != 1 || dynamicCall(&c) {
		return false
	}
	callee := c.own[0]
	b := body(callee)
	if b == nil || len(b.List) == 0 {
		return false
	}
	idle := true
	returnsOf(b, func(r *ast.ReturnStmt) {
		idle = idle && r == b.List[len(b.List)-1]
	})
	return idle && a.idleBranch(a.infoAt(b.Pos()), callee, b.List, depth+1)
}

// returnedBy is what a branch of fn (list, ending in a return) returns,
// written in the return or as named results assigned just before a bare
// one (result = value; return), with the statements before.
func returnedBy(info *types.Info, fn *ssa.Function, list []ast.Stmt) (results []ast.Expr, before []ast.Stmt, ok bool) {
	ret, ok := list[len(list)-1].(*ast.ReturnStmt)
	if !ok {
		return nil, nil, false
	}
	results, before = ret.Results, list[:len(list)-1]
	if len(results) == 0 && len(before) > 0 {
		as, ok := before[len(before)-1].(*ast.AssignStmt)
		if !ok || !assignsNamedResults(info, fn, as) {
			return nil, nil, false
		}
		results, before = as.Rhs, before[:len(before)-1]
	}
	return results, before, true
}

// assignsNamedResults reports whether an assignment sets every named
// result of fn, in order (from one value each, or all from one call).
func assignsNamedResults(info *types.Info, fn *ssa.Function, as *ast.AssignStmt) bool {
	res := fn.Signature.Results()
	if as.Tok != token.ASSIGN || res.Len() == 0 || len(as.Lhs) != res.Len() || len(as.Rhs) != res.Len() && len(as.Rhs) != 1 {
		return false
	}
	for i, l := range as.Lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || info.Uses[id] != res.At(i) {
			return false
		}
	}
	return true
}

// testsFieldValue reports whether a condition compares a field of a value
// (an annotation, a phase, the length of a list) with a constant: an
// opt-in filter or a state not reached yet, which says nothing of whether
// an unchanged object ends there; a value the pass computed (a local
// variable, a predicate's result) is the outcome of its comparison.
func testsFieldValue(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		switch b.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		default:
			return true
		}
		for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if _, local := ast.Unparen(pair[0]).(*ast.Ident); isConst(info, pair[1]) && !local {
				found = true
			}
		}
		return !found
	})
	return found
}

// succeedsIdle reports whether a return hands back success with nothing
// to requeue: a nil error, and a zero reconcile.Result when it returns one.
// A delegate's other result (a status to patch, a flag asking for more)
// hands back nothing to do when it is nil or a zero constant.
func succeedsIdle(info *types.Info, ret *ast.ReturnStmt) bool {
	n := len(ret.Results)
	if n == 0 || n > 2 || !isNil(info, ret.Results[n-1]) {
		return false
	}
	if n == 1 {
		return true
	}
	first := ast.Unparen(ret.Results[0])
	if lit, ok := first.(*ast.CompositeLit); ok {
		return isResultLiteral(info, lit) && len(lit.Elts) == 0
	}
	return isNil(info, first) || isZeroConst(info, first)
}

// isZeroConst reports whether e is a constant of its type's zero value
// (false, 0, "").
func isZeroConst(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(tv.Value)
	case constant.String:
		return constant.StringVal(tv.Value) == ""
	case constant.Int, constant.Float:
		return constant.Sign(tv.Value) == 0
	}
	return false
}

// testsAbsent reports whether a condition tests the primary object's
// pointer against nil (obj == nil: a read that found no object): an
// unchanged object exists, so that branch is no pass of it.
func testsAbsent(info *types.Info, cond ast.Expr, kind *types.Named) bool {
	e, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || e.Op != token.EQL {
		return false
	}
	for _, side := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
		if isNil(info, side[1]) {
			if _, isPtr := info.TypeOf(side[0]).(*types.Pointer); isPtr && isKind(info.TypeOf(side[0]), kind) {
				return true
			}
		}
	}
	return false
}

// testsDeletion reports whether a condition reads the deletion timestamp.
func (a *analysis) testsDeletion(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			found = a.isDeletionTimestamp(info, e)
		}
		return !found
	})
	return found
}

// onlyLogs reports whether statements do nothing but call a logger (the
// knowledge table's RoleLog) or functions of no library role outside the
// tree: no write, no change of a value, no call of the tree's own
// functions.
func (a *analysis) onlyLogs(info *types.Info, fn *ssa.Function, list []ast.Stmt) bool {
	for _, st := range list {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			return false
		}
		ce, ok := ast.Unparen(es.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		if c := a.makeCall(info, ce, fn); c.known && c.fact.Role != RoleLog || len(c.own) > 0 || c.fn == nil {
			return false
		}
	}
	return true
}

// readRunsAt is where in fn the read at pos runs: pos itself when fn (or a
// closure of it) holds it, else the call in fn that runs the helper making
// the read (if err := r.fetch(ctx, req, obj); …), when each function on
// the way is called from one place; NoPos otherwise.
func (a *analysis) readRunsAt(fn *ssa.Function, reach *callgraph.Reach, pos token.Pos) token.Pos {
	if !pos.IsValid() || reach == nil {
		return pos
	}
	if b := body(fn); b != nil && b.Pos() <= pos && pos < b.End() {
		return pos
	}
	var holder *ssa.Function
	for _, g := range reach.Funcs() {
		if gb := body(g); gb != nil && gb.Pos() <= pos && pos < gb.End() && (holder == nil || gb.Pos() > body(holder).Pos()) {
			holder = g // the innermost function holding the read
		}
	}
	// Up the one call of each function on the way: a helper the pass
	// may call from two places (a branch that ends it early, the main
	// path) reads at neither for certain.
	for g, seen := holder, map[*ssa.Function]bool{}; g != nil && !seen[g]; {
		seen[g] = true
		var site ssa.CallInstruction
		for _, e := range a.prog.CallsInto(g) {
			if e.Site == nil || !reach.Has(e.Caller.Func) || e.Site == site {
				continue
			}
			if site != nil {
				return token.NoPos
			}
			site = e.Site
		}
		if site == nil {
			return token.NoPos
		}
		if rootOf(site.Parent()) == fn {
			return site.Pos()
		}
		g = site.Parent()
	}
	return token.NoPos
}

// blockRunning is the block of fn that runs the call at pos: the block of
// that call, or of fn's call of a closure whose literal holds it (a call
// wrapped in a function literal called at once, or assigned and called
// later, runs where the closure is called). It is nil when pos is not a
// call of fn's body, or its closure is called from more than one block.
func (a *analysis) blockRunning(fn *ssa.Function, pos token.Pos) *ssa.BasicBlock {
	if !pos.IsValid() {
		return nil
	}
	var found *ssa.BasicBlock
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().Pos() == pos {
				return b
			}
		}
	}
	for _, e := range a.prog.CallsFrom(fn) {
		if e.Site == nil || !closureHolds(fn, e.Callee.Func, pos) {
			continue
		}
		if found != nil && found != e.Site.Block() {
			return nil
		}
		found = e.Site.Block()
	}
	return found
}

// closureHolds reports whether callee is a closure made in fn (or in one
// of fn's closures) whose literal holds pos.
func closureHolds(fn, callee *ssa.Function, pos token.Pos) bool {
	lit, ok := callee.Syntax().(*ast.FuncLit)
	if !ok || pos < lit.Pos() || pos >= lit.End() {
		return false
	}
	for p := callee.Parent(); p != nil; p = p.Parent() {
		if p == fn {
			return true
		}
	}
	return false
}
