package locate

// Each return a reconcile makes, walked through the functions whose results
// it hands back, and classified by its result and error.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// returns collects the classified returns of fn under a guard: the
// conditions around each return within fn (requeueGuard), under those of
// the returns that hand fn's results back. A function reached again under
// a weaker scope is walked again.
func (a *analysis) returns(fn *ssa.Function, sc scope, w *retWalk, out *[]retSite) {
	if prev, ok := w.seen[fn]; ok && !weaker(sc, prev) {
		return
	}
	w.seen[fn] = sc
	b := body(fn)
	if b == nil {
		return
	}
	info := a.infoAt(b.Pos())
	a.walkReturns(info, b, scope{terminal: sc.terminal}, func(r *ast.ReturnStmt, rs scope) {
		rs.guard = max(sc.guard, a.requeueGuard(info, r, w.kind, fn))
		a.classifyReturn(fn, info, r, rs, w, out)
	})
}

func (a *analysis) classifyReturn(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, sc scope, w *retWalk, out *[]retSite) {
	switch len(s.Results) {
	case 0:
		a.classifyBare(fn, info, s, sc, w, out)
	case 1:
		if res, errE, ok := a.passedThrough(fn, info, s.Results[0]); ok {
			// return wrap(ctrl.Result{…}, err): the wrapper hands back
			// what it is handed, so the return is classified here.
			a.classifyPair(fn, info, s, s, res, errE, sc, w, out)
			return
		}
		if a.constructed(fn, info, s, s, s.Results[0], sc, w, out) || a.mapped(fn, info, s, s, s.Results[0], sc, w, out) {
			return
		}
		if !a.followResults(fn, info, s, s.Results[0], sc, w, out) && typeKey(info.TypeOf(s.Results[0])) == w.shape.typ {
			// A function that hands back a result alone, no error
			// (return ctrl.Result{RequeueAfter: d} after it logs a
			// failure): a pair with a nil error.
			a.classifyPair(fn, info, s, s, s.Results[0], nil, sc, w, out)
		}
	case 2:
		if sc.guard != guardError && a.followPairOf(fn, info, s, s, s.Results, sc, w, out) {
			// return res, err, both made by one call: its returns.
			return
		}
		a.classifyPair(fn, info, s, s, s.Results[0], s.Results[1], sc, w, out)
	default:
		// return res, order, err: a result first and an error last, with
		// other results between, classified by the two.
		if last := s.Results[len(s.Results)-1]; resultAndError(info, s.Results[0], last) {
			a.classifyPair(fn, info, s, s, s.Results[0], last, sc, w, out)
		}
	}
}

// resultAndError reports whether res is a reconcile result and errE an
// error (or nil), by their types.
func resultAndError(info *types.Info, res, errE ast.Expr) bool {
	rt, et := info.TypeOf(res), info.TypeOf(errE)
	return rt != nil && et != nil && typeKey(rt) == typeResult && (isErrorType(et) || isNil(info, errE))
}

// followPairOf follows the call whose two results results are, as they
// are at stmt (a return, or the assignment of the named results a bare
// return hands back), with the hop at hop; false when they are no such
// pair or the call runs none of the tree's functions.
func (a *analysis) followPairOf(fn *ssa.Function, info *types.Info, hop, stmt ast.Node, results []ast.Expr, sc scope, w *retWalk, out *[]retSite) bool {
	call := a.pairOfCall(fn, info, stmt, results)
	if call == nil {
		return false
	}
	if !failureReturnedBetween(info, body(fn), call, stmt, results[1]) {
		// res, err := f(…); if err != nil { log(err) }; return res, err:
		// no failure of f returns first, so this return hands back f's
		// failures as well as its successes.
		return a.followResults(fn, info, hop, call, sc, w, out)
	}
	return a.followPair(fn, info, hop, call, sc, w, out)
}

// failureReturnedBetween reports whether, between the call that made a
// pair and the statement handing it back, an if testing the pair's error
// against nil holds a return (if err != nil { return …, err }): a failure
// of the call is returned there, before.
func failureReturnedBetween(info *types.Info, b *ast.BlockStmt, call ast.Expr, at ast.Node, errE ast.Expr) bool {
	id, ok := ast.Unparen(errE).(*ast.Ident)
	if b == nil || !ok || info.Uses[id] == nil {
		return true
	}
	errObj := info.Uses[id]
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if n.Pos() > call.End() && n.End() <= at.Pos() && testsAgainstNil(info, n.Cond, errObj) && holdsReturn(n) {
				found = true
			}
		}
		return !found
	})
	return found
}

// testsAgainstNil reports whether cond compares the variable v with nil.
func testsAgainstNil(info *types.Info, cond ast.Expr, v types.Object) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ && be.Op != token.EQL {
		return false
	}
	for _, sides := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		if id, ok := ast.Unparen(sides[0]).(*ast.Ident); ok && info.Uses[id] == v && isNil(info, sides[1]) {
			return true
		}
	}
	return false
}

// followPair is followResults for a return of the pair a call made: its
// hop is marked so.
func (a *analysis) followPair(fn *ssa.Function, info *types.Info, hop ast.Node, e ast.Expr, sc scope, w *retWalk, out *[]retSite) bool {
	w.pair = true
	defer func() { w.pair = false }()
	return a.followResults(fn, info, hop, e, sc, w, out)
}

// followResults classifies the returns of the tree's own functions a call
// hands its results back from (return r.reconcile(ctx, obj)), at the return
// hop; false when the call runs none of them.
func (a *analysis) followResults(fn *ssa.Function, info *types.Info, hop ast.Node, e ast.Expr, sc scope, w *retWalk, out *[]retSite) bool {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	c := a.makeCall(info, ce, fn)
	if len(c.own) == 0 || c.known {
		return false
	}
	w.via = append(w.via, retHop{in: fn, pos: hop.Pos(), pair: w.pair})
	w.pair = false
	for _, callee := range c.own {
		a.returns(callee, sc, w, out)
	}
	w.via = w.via[:len(w.via)-1]
	return true
}

// classifyPair classifies a result and an error handed back by the return
// s, made at at (the return itself, or the assignment of the named results);
// a nil res or errE is a named result's zero value. What the result holds
// is asked of the value-flow engine: the Result literals that reach it
// (assigned to a variable, built by a helper, copied field by field from
// another result), or where its trail ends (a builder the engine cannot
// follow: the class is then unknown).
func (a *analysis) classifyPair(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, at ast.Node, res, errE ast.Expr, sc scope, w *retWalk, out *[]retSite) {
	if errE != nil {
		// return …, wrap(err): err's failure, where wrap keeps nil nil.
		errE = a.unwrapError(fn, info, errE)
	}
	if caller, ret, r, e, ok := a.reportedPair(fn, info, res, errE, w); ok {
		saved := w.via
		w.via = saved[:len(saved)-1]
		cinfo := a.infoAt(ret.Pos())
		// What the caller handed the helper may be the pair one call of
		// its made (res, obj, err := r.pass(…); return report(…, res,
		// err)): that call's returns, as the caller's return of them.
		at := ast.Node(ret)
		if len(ret.Results) == 0 {
			// res, err = report(…, res, err); return: the assignment is
			// the site, the bare return the evidence.
			for _, n := range a.path(r.Pos(), r.End()) {
				if as, isAssign := n.(*ast.AssignStmt); isAssign {
					at = as
					break
				}
			}
		}
		if sc.guard == guardError || !a.followPairOf(caller, cinfo, ret, at, []ast.Expr{r, e}, sc, w, out) {
			a.classifyPair(caller, cinfo, ret, at, r, e, sc, w, out)
		}
		w.via = saved
		return
	}
	via := slices.Clone(w.via)
	if sc.guard != guardError && (errE == nil || isNil(info, errE)) {
		// return r.reconcileNormal(ctx, obj), nil: the result is the
		// one the call makes, at its own returns, classified there (a
		// wait it returns after a failure it logs is that failure's
		// retry, not a success's interval), when the call does work
		// that can fail; one that only builds the result
		// (requeueResult(obj)) is cited here, at its use.
		if ce, ok := ast.Unparen(res).(*ast.CallExpr); res != nil && ok && a.callHandlesFailure(info, ce, fn, w.kind) && a.followResults(fn, info, at, ce, sc, w, out) {
			return
		}
		// result, err := f(…); if err != nil { … }; return result, nil:
		// the pair f made, handed back whole where its error is nil.
		followed := false
		for _, ce := range handedResultCalls(info, body(fn), res) {
			followed = a.followPair(fn, info, at, ce, sc, w, out) || followed
		}
		if followed {
			return
		}
	}
	var rv resultValue
	if res != nil {
		var ok bool
		if rv, ok = a.shapedValue(fn, res, w.kind, w.shape); !ok {
			// A parameter handed the caller's result: that argument.
			if hv, handed := a.handedResult(fn, rv, w); handed {
				rv, ok = hv, true
			} else if hv, caller, ret, ce, held := a.callerHeldResult(fn, rv, w); held {
				rv, ok = hv, true
				if e, moved := handedError(fn, info, errE, ce); moved {
					// The helper only hands back what the caller made
					// (return h.poll, nil; return o.V): the site is
					// where the caller returns the call.
					fn, info, s, at, errE = caller, a.infoAt(ret.Pos()), ret, ret, e
					via = via[:len(via)-1]
					if len(ret.Results) == 0 {
						// res, err = h.Poll(); return: the assignment.
						for _, n := range a.path(ce.Pos(), ce.End()) {
							if as, isAssign := n.(*ast.AssignStmt); isAssign {
								at = as
								break
							}
						}
					}
				}
			}
		}
		if !ok {
			if errE != nil && !isNil(info, errE) && !a.neverFails(fn, errE) {
				// Whatever the result holds, the error handed back
				// with it is the pass's failure where it is set: the
				// failing half, retried as errors are.
				// (The error of a call, r.update(…), is that call's
				// failure, unless it is handed the pass's error.)
				class := ClassErrorBackoff
				if a.isTerminal(info, errE) || sc.terminal {
					class = ClassTerminal
				}
				_, call := ast.Unparen(errE).(*ast.CallExpr)
				*out = append(*out, retSite{pos: at.Pos(), class: class, in: fn, ret: s, at: at, via: via, half: call, split: !call || readsErrorVar(info, errE)})
				if a.errorSetAt(fn, info, s, errE) {
					// The error is set wherever the return runs, and
					// controller-runtime ignores the result then: what
					// the result holds there asks for nothing.
					return
				}
			}
			*out = append(*out, retSite{pos: at.Pos(), in: fn, ret: s, at: at, opaque: rv.opaque, copyOpen: rv.copyOpen, via: via, note: rv.why})
			return
		}
	}
	requeue, afterExpr, interval, afterIn := rv.requeue, rv.after, rv.interval, rv.afterIn
	if afterIn == nil {
		afterIn = fn
	}
	errClass := "nil"
	switch {
	case errE == nil || isNil(info, errE):
	case a.isTerminal(info, errE) || sc.terminal:
		errClass = ClassTerminal
	default:
		errClass = "error"
	}
	if errClass == "error" && (a.neverFails(fn, errE) || nilErrorAt(fn, s, a.prog.Own)) {
		// if err != nil { return …, err } where every value err may hold
		// is nil: the return never runs.
		return
	}
	if errClass == "error" && (errorAtReturn(fn, s) == testedNil || a.handedNil(fn, s, errE)) {
		// return ctrl.Result{}, err below if err != nil { …; return }
		// (or return r.report(…, err) handing it on): the error a test
		// above found nil, a success.
		errClass = "nil"
	}
	after := afterExpr != nil
	g := sc.guard
	if errClass == "error" && (after || requeue) && g != guardError {
		if _, call := ast.Unparen(errE).(*ast.CallExpr); call {
			// return ctrl.Result{RequeueAfter: d}, r.update(…), in the
			// body or under a test of no error (if synced {…}): the
			// call's error decides; where it is nil, the result requeues
			// after a success.
			// The failing half is the pass's error (split) when the
			// call is handed an error variable (errors.Join(err,
			// r.patch())), else the call's own failure.
			*out = append(*out, retSite{pos: at.Pos(), class: ClassErrorBackoff, in: fn, ret: s, at: at, via: via, half: true, split: readsErrorVar(info, errE)})
			errClass = "nil"
		}
	}
	open := false
	if errClass == "error" && (after || requeue) && (g == guardNone && handedTogether(info, body(fn), res, errE) || g == guardOther) && a.mayBeNilError(fn, errE) {
		// Under a test that is not only of the error, an interval that
		// is no constant here is set where it is made: whether a
		// success waits on it is not told here.
		open = g == guardOther && afterExpr != nil && info.Types[afterExpr].Value == nil
		// return res, recErr, the two set together by one call (a
		// helper's result and the pass's error it was handed), recErr
		// possibly changed after; or a return under a test that is
		// not only of the error (if wait, err := f(); err != nil ||
		// wait > 0): the return fails where the error is set and hands
		// back the result after a success where it is not.
		*out = append(*out, retSite{pos: at.Pos(), class: ClassErrorBackoff, in: fn, ret: s, at: at, via: via, split: true})
		errClass = "nil"
		// The result is the call's first, handed back unchanged (res,
		// keys, recErr := r.inner(…); …; return res, recErr): where it
		// requeues is at the call's own returns, which hand back its
		// failures too.
		followed := false
		for _, ce := range handedResultCalls(info, body(fn), res) {
			followed = a.followResults(fn, info, at, ce, sc, w, out) || followed
		}
		if followed {
			return
		}
	}
	if errClass == "error" && (after || requeue) && g == guardNone {
		if _, isVar := ast.Unparen(errE).(*ast.Ident); isVar {
			// err := r.sync(…); return ctrl.Result{RequeueAfter: d}, err,
			// under no test: the return fails where the error is set and
			// requeues after a success where it is nil, unless a test
			// above it settles which (if err != nil { return … } before
			// it: nil here).
			switch errorAtReturn(fn, s) {
			case testedNil:
				errClass = "nil"
			case "":
				*out = append(*out, retSite{pos: at.Pos(), class: ClassErrorBackoff, in: fn, ret: s, at: at, via: via, split: true})
				errClass = "nil"
			}
		}
	}
	// return ctrl.Result{RequeueAfter: res.RequeueAfter}, … after res, err
	// := r.inner(…): the duration is inner's, made at its returns, which
	// are the sites, handed back here.
	if after && errClass == "nil" {
		if ce := copiedResultCall(info, body(fn), rv.copied); ce != nil && a.followResults(fn, info, at, ce, sc, w, out) {
			return
		}
	}
	// Where the result's RequeueAfter was stored into it (result.RequeueAfter
	// = d under a condition), that condition guards the wait too.
	g = max(g, rv.guard)
	wfn, winfo, ws := fn, info, s
	if w.stand != nil {
		// A constructor's literal: the work is before the calling return.
		wfn, winfo, ws = w.stand.fn, w.stand.info, w.stand.ret
	}
	// Under a test of an error, a helper's write before the return makes
	// what the return waits on only where the test found an object absent
	// (if apierrors.IsNotFound(err) { create; wait }); elsewhere on a
	// failure path it records the failure (setErrorCondition), and the
	// return retries.
	helpers := g != guardError || a.underAbsentTest(winfo, ws)
	afterWork := after && errClass == "nil" && g != guardNone && a.followsWrite(wfn, winfo, ws, helpers, g == guardOther)
	if after && errClass == "nil" && g != guardNone && !afterWork && w.stand == nil {
		afterWork = a.hopFollowsWrite(via, helpers, g == guardOther)
	}
	// RequeueAfter before Requeue, as controller-runtime reads a result.
	class := ClassNone
	switch {
	case errClass == ClassTerminal:
		class = ClassTerminal
	case errClass == "error":
		class = ClassErrorBackoff
	case after && errClass == "nil" && g != guardError && a.loggedFailure(winfo, ws):
		// A wait in a branch that logs an error first (default: log.Error(…);
		// return ctrl.Result{RequeueAfter: d}, nil): the failure's retry.
		class = ClassRetryAfterFailure
	case afterWork:
		class = ClassDependencyWait
	case after && errClass == "nil" && g == guardError && a.absentWait(winfo, ws, via):
		// A wait where a read found its object absent (if
		// apierrors.IsNotFound(err) { return ctrl.Result{RequeueAfter:
		// d}, nil }): the pass waits for that object to appear, unless
		// it marks a condition first (MarkFalse(obj, Ready, …)), which
		// records a failure it retries (absentWait).
		class = ClassDependencyWait
	case after && g == guardError:
		class = ClassRetryAfterFailure
	case after && g == guardOther:
		class = ClassDependencyWait
	case after:
		class = ClassSuccessInterval
	case requeue && errClass == "nil" && (g == guardError && a.errorPresentOnTheWay(winfo, ws, via) || a.loggedFailure(winfo, ws)):
		// if err != nil { return ctrl.Result{Requeue: true}, nil }: the
		// failure's retry, at once (a test of what an error is, a read
		// that found its object absent or a signal errors.As picks out,
		// is no failure's: the pass comes back for what it says).
		class = classImmediateRetry
	case requeue:
		class = ClassImmediate
	}
	signal := ""
	if class == ClassRetryAfterFailure && afterExpr != nil && afterIn == fn {
		signal = a.signalError(info, s, afterExpr)
	}
	kindWait := ""
	if class == ClassRetryAfterFailure && errClass == "nil" {
		if k := a.errorKindTest(winfo, ws); k != "" {
			w := a.site(ws.Pos())
			kindWait = fmt.Sprintf("%s:%d, where %s", w.File, w.Line, k)
		}
	}
	dropped := token.NoPos
	if class == ClassSuccessInterval || class == ClassDependencyWait {
		dropped = rv.dropped
		if st, ok := at.(ast.Stmt); ok && !dropped.IsValid() {
			dropped = a.droppedError(info, st)
		}
	}
	*out = append(*out, retSite{pos: at.Pos(), class: class, in: fn, interval: interval, after: afterExpr, afterIn: afterIn, madeIn: rv.madeIn, ret: s, at: at, afterWork: afterWork, via: via, signal: signal, open: open, kindWait: kindWait, dropped: dropped})
}

// hopFollowsWrite is followsWrite for a return of a helper whose results
// the returns of via hand back (a branch moved into a helper): the work
// before each of those returns, in its own function, comes before the
// helper's return too.
func (a *analysis) hopFollowsWrite(via []retHop, helpers, outer bool) bool {
	for i := len(via) - 1; i >= 0; i-- {
		p := a.path(via[i].pos, via[i].pos)
		if len(p) == 0 {
			continue
		}
		if ret, ok := p[0].(*ast.ReturnStmt); ok && ret.Pos() == via[i].pos && a.followsWrite(via[i].in, a.infoAt(ret.Pos()), ret, helpers, outer) {
			return true
		}
	}
	return false
}

// errorPresentOnTheWay reports whether a return (n, of a function whose
// results the returns of via hand back) stands under a test that an error
// is there (underErrorPresent): in its own function, or, for a branch
// moved into a helper, around one of the returns that hand it back.
func (a *analysis) errorPresentOnTheWay(info *types.Info, n ast.Node, via []retHop) bool {
	if a.underErrorPresent(info, n) {
		return true
	}
	for _, h := range via {
		if p := a.path(h.pos, h.pos); len(p) > 0 && a.underErrorPresent(a.infoAt(h.pos), p[0]) {
			return true
		}
	}
	return false
}

// absentWait reports whether a return (n, of a function whose results
// the returns of via hand back) stands where a read found its object
// absent, and no condition was marked on the way to it: in the branch of
// an absent test in its own function, or, for a branch moved into a
// helper, around one of the returns that hand it back.
func (a *analysis) absentWait(info *types.Info, n ast.Node, via []retHop) bool {
	absent := a.underAbsentTest(info, n)
	if a.markedFailure(info, n, len(via) > 0) {
		return false
	}
	for i := len(via) - 1; i >= 0; i-- {
		p := a.path(via[i].pos, via[i].pos)
		if len(p) == 0 {
			continue
		}
		hinfo := a.infoAt(via[i].pos)
		if a.markedFailure(hinfo, p[0], i > 0) {
			return false
		}
		absent = absent || a.underAbsentTest(hinfo, p[0])
	}
	return absent
}

// errorTestAround is the condition of the nearest if around n that tests
// an error, when n is in its body; nil otherwise.
func (a *analysis) errorTestAround(info *types.Info, n ast.Node) ast.Expr {
	if ifs := a.errorIfAround(info, n); ifs != nil {
		return ifs.Cond
	}
	return nil
}

// underAbsentTest reports whether the nearest if around n that tests an
// error asks whether an object is absent (the knowledge table's
// RoleAbsentTest, apierrors.IsNotFound(err)), and n is in its branch; or
// whether n follows, in that if's body, an if that leaves unless the
// object is absent (if err != nil { if !apierrors.IsNotFound(err) {
// return err }; n }).
func (a *analysis) underAbsentTest(info *types.Info, n ast.Node) bool {
	ifs := a.errorIfAround(info, n)
	if ifs == nil {
		return false
	}
	// The test, or one of the tests it joins with && (err != nil &&
	// apierrors.IsNotFound(err)).
	var absent func(e ast.Expr) bool
	absent = func(e ast.Expr) bool {
		switch e := ast.Unparen(e).(type) {
		case *ast.BinaryExpr:
			return e.Op == token.LAND && (absent(e.X) || absent(e.Y))
		case *ast.CallExpr:
			c := a.makeCall(info, e, nil)
			return c.known && c.fact.Role == RoleAbsentTest
		}
		return false
	}
	if absent(ifs.Cond) {
		return true
	}
	for _, st := range ifs.Body.List {
		if st.End() > n.Pos() {
			return false
		}
		inner, ok := st.(*ast.IfStmt)
		if !ok || inner.Else != nil || !exitsEarly(inner.Body) {
			continue
		}
		if not, ok := ast.Unparen(inner.Cond).(*ast.UnaryExpr); ok && not.Op == token.NOT && absent(not.X) {
			return true
		}
	}
	return false
}

// signalError names the error variable an enclosing if's errors.As (the
// standard library's, or a package's re-export of it) fills and the
// interval after reads (if errors.As(err, &wait) { return
// ctrl.Result{RequeueAfter: wait.Duration()}, nil }): the error carries
// the requeue's interval, a request made where such an error is made,
// which may be a wait on a dependency as well as a retry after a failure.
// "" when there is none.
func (a *analysis) signalError(info *types.Info, n ast.Node, after ast.Expr) string {
	read := readVars(info, after)
	if len(read) == 0 {
		return ""
	}
	path := a.path(n.Pos(), n.End())
	for _, p := range path {
		switch x := p.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return ""
		case *ast.IfStmt:
			name := ""
			ast.Inspect(x.Cond, func(m ast.Node) bool {
				ce, ok := m.(*ast.CallExpr)
				if !ok || name != "" {
					return name == ""
				}
				if errorsCall(info, ce) != "As" {
					return true
				}
				u, ok := ast.Unparen(ce.Args[1]).(*ast.UnaryExpr)
				if !ok || u.Op != token.AND {
					return true
				}
				id, ok := ast.Unparen(u.X).(*ast.Ident)
				if !ok {
					return true
				}
				if v, ok := info.Uses[id].(*types.Var); ok && read[v] {
					name = id.Name
				}
				return true
			})
			if name != "" {
				return name
			}
		}
	}
	return ""
}

// errorSetAt reports whether the error errE that the return s of fn hands
// back is set wherever the return runs: SSA finds it so, or the return
// stands in the body of an if testing that the variable it names is not
// nil (read from the syntax where SSA returns the named results' slots).
func (a *analysis) errorSetAt(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, errE ast.Expr) bool {
	if errorAtReturn(fn, s) == testedSet {
		return true
	}
	id, ok := ast.Unparen(errE).(*ast.Ident)
	return ok && info.Uses[id] != nil && a.underNilTestOf(info, s, info.Uses[id], token.NEQ)
}
