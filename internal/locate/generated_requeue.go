package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// generatedRequeues classifies the events the hand-written ReconcileKind
// returns: a NewRequeueAfter(d) brings the key back after d (classified as
// a controller-runtime RequeueAfter would be), a permanent error is
// terminal, a skipped key, a normal event and nil bring nothing back, and
// any other error (a warning event too) is re-added rate-limited by the
// dependency's controller.
func (a *analysis) generatedRequeues(f *found) *requeues {
	out := &requeues{}
	g := a.generatedOf(f)
	if g == nil {
		out.onError = none("not settled: the generated Reconcile's call of " + generatedKindMethod + " was not found")
		out.onSuccess = out.onError
		return out
	}
	var rets []retSite
	a.eventReturns(g.reconcileKind, scope{}, map[*ssa.Function]bool{}, &rets)
	// A bare warning event is dropped by the generated Reconcile: that
	// value of a return is terminal. Another value the same return may
	// hand back (a plain error a helper returns on another path) keeps
	// its own class.
	if at := a.bareEventDropped(f.entry); at != "" && !g.handWritten {
		for i := range rets {
			if rets[i].class == ClassErrorBackoff && rets[i].bareEvent {
				rets[i].class = ClassTerminal
				rets[i].note = "a bare warning event: the generated Reconcile records it and returns nil (its test of the event's type at " + at + "), so nothing is requeued"
			}
		}
	}
	rets = uniqueRets(rets)
	var opaque []string
	for _, r := range rets {
		if r.opaque != nil {
			s := a.site(r.pos)
			opaque = append(opaque, fmt.Sprintf("%s:%d (%s)", s.File, s.Line, r.note))
		}
	}
	var success *retSite
	for i := range rets {
		if rets[i].class == ClassSuccessInterval {
			out.successReturns = append(out.successReturns, rets[i].ret.Pos())
			if success == nil || rets[i].in == g.reconcileKind {
				success = &rets[i]
			}
		}
	}
	isFailure := func(c string) bool { return c == ClassErrorBackoff || c == ClassRetryAfterFailure }
	// inKind is where a return stands in ReconcileKind: its own, or the
	// return handing back the helper it is in (a branch extracted into
	// a helper, the rest of the pass delegated).
	inKind := func(r *retSite) bool { return r.posIn(g.reconcileKind).IsValid() }
	later := func(r, than *retSite) bool { return a.handedLater(g.reconcileKind, f.kind, r, than) }
	var primary *retSite
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) {
			continue
		}
		switch {
		case success != nil:
			if r.in == success.in && r.pos < success.pos && (primary == nil || r.pos > primary.pos) {
				primary = r
			}
		default:
			if inKind(r) && (primary == nil || later(r, primary)) {
				primary = r
			}
		}
	}
	var errSites []Site
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) && r.class != ClassTerminal {
			continue
		}
		s := a.site(r.pos)
		s.Class = r.class
		s.Primary = r == primary
		if r.bareEvent && r.class == ClassTerminal {
			s.Note = r.note
		}
		errSites = append(errSites, s)
	}
	if primary == nil {
		for i := range errSites {
			if errSites[i].Class != ClassTerminal {
				errSites[i].Primary = true
				break
			}
		}
	}
	out.onError = Row{Sites: errSites}
	if _, ok := out.onError.Primary(); !ok {
		out.onError = none("no failure path of " + g.reconcileKind.Name() + " returns an error")
		if len(errSites) > 0 {
			out.onError.Sites = errSites
			out.onError.None = "every failure return of " + g.reconcileKind.Name() + " is a permanent error (or a bare warning event, which the generated Reconcile drops): nothing comes back on error"
		}
		if others := a.otherKindMethods(f.entry, g.reconcileKind); len(others) > 0 {
			var at []string
			for _, o := range others {
				s := a.funcSite(o)
				at = append(at, fmt.Sprintf("%s at %s:%d", s.Func, s.File, s.Line))
			}
			out.onError.None = "not settled: the hand-written type also implements methods the generated Reconcile calls through its interfaces and whose errors it returns, not read for this row: " + strings.Join(at, ", ") + "; without them: " + out.onError.None
		}
		if len(opaque) > 0 {
			out.onError.None = "not settled: what " + g.reconcileKind.Name() + " returns at " + strings.Join(opaque, ", ") + " was not followed; without it: " + out.onError.None
		}
	} else if f.registration != nil {
		reg := f.registration[0]
		reg.Note = "the dependency's controller re-adds the key rate-limited when the generated Reconcile returns an error"
		out.onError.Sites = append(out.onError.Sites, reg)
	}
	if primary != nil && primary.class == ClassRetryAfterFailure {
		out.retry = &timedRequeue{in: primary.in, at: primary.at, duration: primary.after}
	}
	if success == nil {
		if after := a.enqueuedAfter(f); after != nil {
			out.success = after
			s := a.site(after.at.Pos())
			s.Class = ClassSuccessInterval
			s.Primary = true
			s.Note = "the key is enqueued again after a delay through the controller"
			out.onSuccess = Row{Sites: []Site{s}}
			return out
		}
		if len(opaque) > 0 {
			out.onSuccess = none("not settled: what " + g.reconcileKind.Name() + " returns at " + strings.Join(opaque, ", ") + " was not followed")
			return out
		}
		// No steady-state requeue, but a NewRequeueAfter under a test of
		// something else than the object (a dependency not ready yet):
		// that is the requeue a success makes, as for controller-runtime.
		var waits []*retSite
		for i := range rets {
			if rets[i].class == ClassDependencyWait && !slices.ContainsFunc(waits, func(w *retSite) bool { return w.pos == rets[i].pos }) {
				waits = append(waits, &rets[i])
			}
		}
		if len(waits) > 1 {
			// Which of several waits a success makes is the steady
			// one is not told by the source.
			out.onSuccess = none("not settled: no return of " + g.reconcileKind.Name() + " on the success path asks for a requeue after a delay, and it waits on something else than the object at " + a.siteList(waits) + "; which of them a success makes, ctrlcmp does not tell")
			return out
		}
		for _, r := range waits {
			out.success = &timedRequeue{in: r.in, at: r.at, duration: r.after}
			s := a.site(r.pos)
			s.Class = ClassDependencyWait
			s.Primary = true
			s.Note = "a wait on something else than the object (a dependency), with no error; the final success return of " + g.reconcileKind.Name() + " does not requeue: the steady state is event-driven"
			out.onSuccess = Row{Sites: []Site{s}}
			return out
		}
		out.onSuccess = noneAfter("event-driven only: no return of "+g.reconcileKind.Name()+" on the success path asks for a requeue after a delay, and nothing on the reconcile path enqueues the key after one, so the object is reconciled again only on informer events and resyncs",
			"the returns of "+g.reconcileKind.Name()+" and the helpers whose events it returns; the delayed enqueues of every function reachable from the generated Reconcile")
		return out
	}
	out.success = &timedRequeue{in: success.in, at: success.at, duration: success.after}
	out.onSuccess = a.successRow(success.pos, "")
	return out
}

// eventReturns classifies the returns of a function returning an event,
// following returns that hand back the event of another of the tree's
// functions. A helper called from several places, that hands back an
// error it is given (return c.finish(ctx, obj, err), the helper recording
// an event first), is classified at each return that calls it, by the
// argument; its other returns are its own outcomes.
func (a *analysis) eventReturns(fn *ssa.Function, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	a.eventReturnsPassing(fn, nil, sc, seen, out)
}

// eventReturnsPassing is eventReturns, the returns handing back the
// parameter passed left out (the caller classifies them by its argument).
func (a *analysis) eventReturnsPassing(fn *ssa.Function, passed *types.Var, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	if seen[fn] {
		return
	}
	seen[fn] = true
	b := body(fn)
	if b == nil {
		return
	}
	info := a.infoAt(b.Pos())
	a.eventResults(fn, info, b, sc, func(r *ast.ReturnStmt, e ast.Expr, at ast.Node, sc scope, settled bool) {
		if !settled {
			*out = append(*out, retSite{pos: at.Pos(), in: fn, ret: r, at: at, opaque: e,
				note: "the named result this bare return hands back is assigned under a condition before it"})
			return
		}
		if passed != nil {
			if id, ok := ast.Unparen(a.unwrapError(fn, info, e)).(*ast.Ident); ok && info.Uses[id] == passed {
				if as, settled := a.reachingAssignment(info, r, passed); !settled || as == nil {
					return // (the parameter as handed, not reassigned before)
				}
			}
			if a.handsOnPassed(fn, info, e, passed, sc, seen, out) {
				return
			}
		}
		a.classifyEvent(fn, info, r, e, at, sc, seen, out)
	})
}

// classifyEvent classifies one event a function hands back (e, made at
// at, handed back by the return r).
func (a *analysis) classifyEvent(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, e ast.Expr, at ast.Node, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	site := retSite{pos: at.Pos(), in: fn, ret: r, at: at}
	if e == nil || isNil(info, e) {
		return
	}
	e = ast.Unparen(a.unwrapError(fn, info, e))
	if in, ok := a.initOf(info, e); ok && isCall(in.expr) {
		// A package variable holding an event made once (var
		// requeueSoon = controller.NewRequeueAfter(d)): that event.
		a.classifyEvent(fn, in.info, r, in.expr, at, sc, seen, out)
		return
	}
	if id, ok := e.(*ast.Ident); ok {
		if x := equalTested(info, body(fn), r, id); x != nil {
			// The error handed back is the value it was found equal to:
			// what a call asked for (a requeue after a delay), not a
			// failure of it, whatever test of that error it sits under.
			if sc.guard == guardError {
				sc.guard = guardOther
			}
			a.classifyEvent(fn, info, r, x, at, sc, seen, out)
			return
		}
	}
	if _, ok := e.(*ast.Ident); ok && (testedNilReturn(fn, r) || a.neverFails(fn, e) || nilErrorAt(fn, r, a.prog.Own)) {
		// An error returned only where a test found it nil (return err
		// after `if err != nil { return err }`), or nil wherever it
		// stands (a helper that fails on nothing): a success.
		return
	}
	if id, ok := e.(*ast.Ident); ok && a.classifyAssigned(fn, info, r, id, at, seen, out) {
		return
	}
	if id, ok := e.(*ast.Ident); ok && a.classifyHeld(fn, info, r, id, at, sc, seen, out) {
		return
	}
	if ce, ok := e.(*ast.CallExpr); ok {
		c := a.makeCall(info, ce, fn)
		switch {
		case c.known && c.fact.Role == RoleRequeueAfterEvent:
			site.after = c.arg(c.fact.Arg)
			site.interval = namedBy(info, site.after)
			switch {
			case site.after == nil:
				site.class = ClassImmediate
			case sc.guard == guardError:
				site.class = ClassRetryAfterFailure
			case sc.guard == guardOther:
				site.class = ClassDependencyWait
			default:
				site.class = ClassSuccessInterval
			}
			*out = append(*out, site)
			return
		case c.known && c.fact.Role == RoleSkipKey:
			return
		case c.known && c.fact.Role == RoleReconcileEvent:
			if v, ok := stringValue(info, c.arg(c.fact.Arg)); ok && v == eventTypeNormal {
				return
			}
			site.bareEvent = true
		case c.known && c.fact.Role == RoleTerminalError:
			site.class = ClassTerminal
			*out = append(*out, site)
			return
		case len(c.own) > 0 && !c.known:
			n := len(*out)
			defer func() {
				// The helper's returns are handed back here: where the
				// failure branches off in this function.
				for i := n; i < len(*out); i++ {
					(*out)[i].via = append([]retHop{{in: fn, pos: at.Pos()}}, (*out)[i].via...)
				}
			}()
			for _, callee := range c.own {
				if i, param := a.passedError(callee); param != nil && i < len(ce.Args) && (a.callSites(callee) > 1 || forwardCall(body(callee)) != nil || a.testedEqual(fn, info, r, ce.Args[i])) {
					// The helper hands back the error it is given:
					// the argument is this return's event (shared by
					// several callers, made of one call it hands on,
					// or one a test here settles).
					m := len(*out)
					a.classifyEvent(fn, info, r, ce.Args[i], at, sc, seen, out)
					a.passedAt(callee, param, (*out)[m:])
					a.eventReturnsPassing(callee, param, sc, seen, out)
					continue
				}
				if a.combinesErrors(callee) {
					// The helper fails on nothing of its own: each
					// error handed to it is this return's event.
					a.classifyErrorArgs(fn, info, r, ce, at, sc, seen, out)
					continue
				}
				a.eventReturns(callee, sc, seen, out)
			}
			return
		}
	}
	site.class = ClassErrorBackoff
	if sc.terminal {
		site.class = ClassTerminal
	}
	*out = append(*out, site)
}

// testedEqual reports whether an argument is a variable the return r is
// under a test of equality with a value (equalTested).
func (a *analysis) testedEqual(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, arg ast.Expr) bool {
	id, ok := ast.Unparen(arg).(*ast.Ident)
	return ok && equalTested(info, body(fn), r, id) != nil
}

// classifyHeld classifies an event held in a local variable (ev :=
// controller.NewRequeueAfter(d); …; return ev) by the values the
// value-flow engine settles it to (a call it does not follow is such a
// value), when one of them is an event the dependency makes (a requeue
// after a delay, a permanent error, a skipped key, an event): each is
// classified as if returned here, the nil values bring nothing back, and
// any other value is an error. It reports whether it classified the
// variable so.
func (a *analysis) classifyHeld(fn *ssa.Function, info *types.Info, r *ast.ReturnStmt, id *ast.Ident, at ast.Node, sc scope, seen map[*ssa.Function]bool, out *[]retSite) bool {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || paramIn(fn, v) {
		return false
	}
	b := a.flowBodyOf(fn)
	if _, lit := fn.Syntax().(*ast.FuncLit); lit {
		b = a.closureBody(fn)
	}
	if b == nil {
		return false
	}
	vals := (&flowEngine{a: a}).values(b, id)
	made := false
	for _, v := range vals {
		if ce, ok := ast.Unparen(v.e).(*ast.CallExpr); ok && v.b != nil && len(v.path) == 0 {
			if c := a.makeCall(v.b.info, ce, fn); c.known && (c.fact.Role == RoleRequeueAfterEvent || c.fact.Role == RoleTerminalError || c.fact.Role == RoleSkipKey || c.fact.Role == RoleReconcileEvent) {
				made = true
			}
		}
	}
	if !made {
		return false
	}
	other := false
	for _, v := range vals {
		switch {
		case v.zero || v.e != nil && v.b != nil && isNil(v.b.info, v.e):
		case v.e != nil && v.b != nil && len(v.path) == 0 && isCall(v.e):
			ce := ast.Unparen(v.e).(*ast.CallExpr)
			if c := a.makeCall(v.b.info, ce, fn); c.known {
				a.classifyEvent(fn, v.b.info, r, ce, at, sc, seen, out)
				continue
			}
			other = true
		default:
			other = true
		}
	}
	if other {
		site := retSite{pos: at.Pos(), in: fn, ret: r, at: at, class: ClassErrorBackoff}
		if sc.terminal {
			site.class = ClassTerminal
		}
		*out = append(*out, site)
	}
	return true
}

// callSites counts the places the tree calls an own function: a helper
// called from several is the function's way of finishing a pass
// (classified at each return that calls it, by its argument); one called
// from one place is a branch moved out of its caller.
func (a *analysis) callSites(fn *ssa.Function) int {
	sites := map[token.Pos]bool{}
	for _, e := range a.prog.CallsInto(fn) {
		if e.Site != nil {
			sites[e.Site.Common().Pos()] = true
		}
	}
	return len(sites)
}

// eventResults walks the returns of a function returning one value and
// calls visit with the value each hands back (nil for a nil or zero one)
// and where it is made: the return's own expression, or, for a bare
// return of a named result, the assignment reaching it (the site; the
// return is the evidence that hands it back). A bare return whose named
// result is assigned under a condition before it is visited unsettled.
func (a *analysis) eventResults(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, sc scope, visit func(r *ast.ReturnStmt, e ast.Expr, at ast.Node, sc scope, settled bool)) {
	named := namedResults(fn)
	a.walkReturns(info, b, sc, func(r *ast.ReturnStmt, sc scope) {
		switch {
		case len(r.Results) == 1:
			visit(r, r.Results[0], r, sc, true)
		case len(r.Results) == 0 && len(named) == 1:
			obj := info.Defs[named[0]]
			as, ok := a.reachingAssignment(info, r, obj)
			switch {
			case !ok:
				visit(r, named[0], r, sc, false)
			case as == nil:
				visit(r, nil, r, sc, true)
			case len(as.Lhs) == len(as.Rhs):
				for i, l := range as.Lhs {
					if assigns(info, l, obj) {
						visit(r, as.Rhs[i], as, sc, true)
					}
				}
			default:
				visit(r, named[0], as, sc, false)
			}
		}
	})
}

// enqueuedAfter returns the first delayed enqueue (the controller's
// EnqueueAfter) on the reconcile path, or nil: called directly, or through
// a function-valued field the tree stores it in (r.enqueueAfter =
// impl.EnqueueAfter in the constructor, r.enqueueAfter(obj, d) in the
// pass). A delayed add to a queue the tree makes itself is another
// queue's.
func (a *analysis) enqueuedAfter(f *found) *timedRequeue {
	for _, fn := range a.reachOf(f).Funcs() {
		for _, c := range a.callsIn(fn) {
			fact, known := c.fact, c.known
			if !known && c.fn == nil {
				fact, known = a.storedFuncFact(c)
			}
			if !known || fact.Role != RoleQueueAddAfter || c.arg(fact.Arg) == nil {
				continue
			}
			if info := a.infoAt(c.expr.Pos()); info != nil && a.madeQueue(receiverField(info, c.expr)) {
				continue // a queue of the tree's own (a prober's), not the controller's
			}
			return &timedRequeue{in: fn, at: c.expr, duration: c.arg(fact.Arg)}
		}
	}
	return nil
}

// bareEventDropped says where the generated Reconcile tells a bare event
// (a *reconciler.ReconcilerEvent returned as it is, not wrapped in an
// error) apart from an error: its type assertion to the event type, after
// which the generated code records the event and returns nil, so that a
// warning event returned from ReconcileKind requeues nothing. "" when the
// generated Reconcile (and the helpers of its package it calls) has no
// such assertion (it returns the event, and the dependency's controller
// requeues it as an error).
func (a *analysis) bareEventDropped(sync *ssa.Function) string {
	var at token.Pos
	for _, fn := range a.generatedFuncs(sync) {
		b := body(fn)
		if b == nil || fn.Pkg != sync.Pkg || at.IsValid() {
			continue
		}
		info := a.infoAt(b.Pos())
		ast.Inspect(b, func(n ast.Node) bool {
			if ta, ok := n.(*ast.TypeAssertExpr); ok && ta.Type != nil && !at.IsValid() {
				if t := info.TypeOf(ta.Type); t != nil && typeKey(t) == typeReconcilerEvent {
					at = ta.Pos()
				}
			}
			return !at.IsValid()
		})
	}
	if !at.IsValid() {
		return ""
	}
	s := a.site(at)
	return fmt.Sprintf("%s:%d", s.File, s.Line)
}

// otherKindMethods returns the hand-written type's methods, other than
// ReconcileKind and FinalizeKind, that the generated Reconcile (or a
// function of the tree it calls) calls through an interface the type
// implements: an ObserveKind for the replicas that do not lead, an
// ObserveDeletion once the object is gone. The generated code hands back
// what they return.
func (a *analysis) otherKindMethods(sync, impl *ssa.Function) []*ssa.Function {
	recv := impl.Signature.Recv()
	named, ok := deref(recv.Type()).(*types.Named)
	if !ok {
		return nil
	}
	var out []*ssa.Function
	a.interfaceSelections(sync, func(_ *ast.SelectorExpr, m *types.Func, it *types.Interface) {
		if m.Name() == generatedKindMethod || m.Name() == generatedFinalizeMethod || !types.Implements(recv.Type(), it) {
			return
		}
		if own := a.methodFunc(named, m.Name()); own != nil && !slices.Contains(out, own) {
			out = append(out, own)
		}
	})
	return out
}

// uniqueRets keeps one of the classifications that say the same of one
// return: a return whose error variable the value-flow engine settles to
// many values (a helper's several failures) is classified once per value.
func uniqueRets(rets []retSite) []retSite {
	type key struct {
		pos       token.Pos
		class     string
		in        *ssa.Function
		bareEvent bool
		opaque    bool
		after     ast.Expr
	}
	seen := map[key]bool{}
	out := rets[:0]
	for _, r := range rets {
		k := key{r.pos, r.class, r.in, r.bareEvent, r.opaque != nil, r.after}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, r)
	}
	return out
}

// handedLater reports whether the failure return r stands later on the
// pass than than, read from fn (ReconcileKind) inwards: in fn, where each
// is handed back; a return handed back by the success path's end (the
// final return, or the end of the branch where a tested error is nil:
// `if err == nil { return rest(…) } else { return err }`) comes after the
// failures branching off before it, wherever it stands. Two handed back
// by the same return of fn from the same helper are compared in that
// helper the same way, one function in at a time: a ReconcileKind that
// hands its whole pass to a helper (return r.finalize(ctx, obj)) leaves
// the order to the helper's own returns. Else the later in the source.
func (a *analysis) handedLater(fn *ssa.Function, kind *types.Named, r, than *retSite) bool {
	for seen := map[*ssa.Function]bool{}; fn != nil && !seen[fn]; {
		seen[fn] = true
		rp, tp := r.posIn(fn), than.posIn(fn)
		var end token.Pos
		if ret := a.successEnd(fn, kind); ret != nil {
			end = ret.Pos()
		}
		rn, tn := r.handedTo(fn), than.handedTo(fn)
		if re, te := end.IsValid() && rn != nil && rp == end, end.IsValid() && tn != nil && tp == end; re != te {
			return re
		}
		if rp != tp {
			return rp > tp
		}
		if rn == nil || rn != tn {
			break
		}
		fn = rn
	}
	return r.pos > than.pos
}

// handedTo is the function whose results fn hands back on the site's way
// to the entry, nil when the site is fn's own or does not pass through fn.
func (r *retSite) handedTo(fn *ssa.Function) *ssa.Function {
	for i, h := range r.via {
		if h.in != fn {
			continue
		}
		if i+1 < len(r.via) {
			return r.via[i+1].in
		}
		return r.in
	}
	return nil
}
