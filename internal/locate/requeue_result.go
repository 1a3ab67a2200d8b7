package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// retSite is a return of a reconcile function, classified.
type retSite struct {
	pos   token.Pos
	class string
	// bareEvent says the value is a warning event made by the
	// dependency's event constructor (a generated reconciler's
	// ReconcileKind returning it: the generated Reconcile may drop it).
	bareEvent bool
	in        *ssa.Function
	// interval is what names the RequeueAfter duration (a field, a
	// variable, a getter), when there is one.
	interval types.Object
	// afterIn is the function after is an expression of.
	afterIn *ssa.Function
	// madeIn is the helper the interval is made in when after is the
	// value of a call of it (resultValue.madeIn).
	madeIn *ssa.Function
	// after is the RequeueAfter expression (or the call of the helper that
	// builds the result), ret the return statement, and at where the
	// result is made: the return, or the assignment of the named results a
	// bare return hands back.
	after ast.Expr
	ret   ast.Node
	at    ast.Node
	// note says how the site hands its result back (a bare return).
	note string
	// deferred says the site is an assignment to a named result in a
	// deferred closure: it runs after every return.
	deferred bool
	// opaque is a result built by an expression ctrlcmp does not follow
	// (a call of a result builder); its class is then unknown.
	opaque ast.Expr
	// copyOpen says the result is opaque because a helper copies into
	// it the interval of a result it is handed (resultValue.copyOpen).
	copyOpen bool
	// errOpen says the error the site hands back is not followed either
	// (named results assigned, or handed by address, where the walk
	// cannot tell): it may be a failure.
	errOpen bool
	// afterWork says the return waits after a write that succeeded in its
	// own block (a child just created): a dependency wait, not a retry.
	afterWork bool
	// signal names the error a test picked out (errors.As) whose
	// interval the result carries: a request made where that error is
	// made, a failure's retry or a wait the code does not class here.
	signal string
	// kindWait is, for a wait with a nil error that a failure takes only
	// where a test picks out its kind (errors.As(err, &NotReady{})), or
	// that a failure mapper this return hands its error to may make,
	// where that wait is and the kind: a wait on a dependency as well as
	// a retry (errorKindTest).
	kindWait string
	// dropped is, for a timed return with a nil error, where an error
	// variable that may still hold a failure there was set
	// (droppedError).
	dropped token.Pos
	// split marks the failing half of a return whose error may or may not
	// be nil (return res, recErr, recErr the pass's error handed through):
	// the same return, classed apart where the error is set.
	split bool
	// half marks the failing half of a return whose error is a call's
	// (return ctrl.Result{RequeueAfter: d}, r.update(…)): the return is
	// classified again where the call succeeds.
	half bool
	// open says the site hands back, with an error that may be nil,
	// an interval a call made under a test of both (if wait, err :=
	// f(); err != nil || wait > 0): what a success waits on there is
	// decided in the call.
	open bool
	// via are the returns that hand this one's results back towards the
	// entry (return r.reconcile(ctx, obj)), outermost first.
	via []retHop
}

// retHop is a return that hands back the results of a call: where, and in
// which function.
type retHop struct {
	in  *ssa.Function
	pos token.Pos
	// pair says the return hands back the two results a call made,
	// after testing them (res, err := f(); …; return res, err).
	pair bool
}

// afterFn is the function the site's RequeueAfter expression is in.
func (r *retSite) afterFn() *ssa.Function {
	if r.afterIn != nil {
		return r.afterIn
	}
	return r.in
}

// resultRequeues classifies every return of the reconcile path of a
// controller-runtime reconciler, following returns that hand back a helper's
// result.
func (a *analysis) resultRequeues(f *found, reach *callgraph.Reach, kind *types.Named) *requeues {
	return a.shapedRequeues(f, reach, kind, crResult)
}

// shapedRequeues is resultRequeues for an entry whose results are of the
// given shape (a client-go sync returning a result of the tree's own type
// that its worker turns into queue calls).
func (a *analysis) shapedRequeues(f *found, reach *callgraph.Reach, kind *types.Named, shape resultShape) *requeues {
	out := &requeues{}
	var rets []retSite
	w := newRetWalk(kind)
	w.shape = shape
	a.returns(f.entry, scope{}, w, &rets)
	rets = lastWalk(rets)
	searched := fmt.Sprintf("the returns of %s (the entry and the functions whose results it hands back), and the named results its deferred functions assign: a reconcile.Result that may hold RequeueAfter or Requeue, with the error each is returned with", funcNames(w.walked()))
	if shape != crResult {
		searched = fmt.Sprintf("the returns of %s (the entry and the functions whose results it hands back): a %s whose delay the worker waits before it adds the key again, with the error each is returned with", funcNames(w.walked()), shape.typ)
	}
	deferred := a.deferredResults(f.entry, kind)
	overrideAt, overridden := a.overridingDefer(f.entry)
	if overridden {
		// A deferred function that sets both named results on every
		// path decides what every return after it hands back: those
		// returns' own values are only what it may read.
		kept := rets[:0]
		for _, r := range rets {
			if p := r.entryPos(f.entry); !p.IsValid() || p < overrideAt {
				kept = append(kept, r)
			}
		}
		rets = kept
	}
	rets = append(rets, deferred...)
	sharedWaits(rets, f.entry)
	// A wait whose duration a Spec field of the object sets (a resync
	// interval its user chose) is the object's own periodic requeue,
	// whatever the test around it, where no return requeues after an
	// interval on success otherwise: a tree that has one keeps the waits
	// around it apart from it.
	if !slices.ContainsFunc(rets, func(r retSite) bool { return r.class == ClassSuccessInterval && !r.deferred }) {
		for i := range rets {
			if r := &rets[i]; r.class == ClassDependencyWait && !r.deferred && r.after != nil && a.specInterval(kind, reach, r) {
				r.class = ClassSuccessInterval
			}
		}
	}

	// The success return: the steady state, the one that comes after the
	// others' (past the returns of the special cases) in the function that
	// hands them back; when no such rule settles two, neither is certain.
	var cands []*retSite
	for i := range rets {
		if r := &rets[i]; r.class == ClassSuccessInterval {
			out.successReturns = append(out.successReturns, r.ret.Pos())
			cands = append(cands, r)
		}
	}
	steady := a.steadyStates(cands)
	var success *retSite
	if len(steady) == 1 {
		success = steady[0]
	}
	isFailure := func(c string) bool {
		return c == ClassErrorBackoff || c == ClassRetryAfterFailure || c == classImmediateRetry
	}
	// With no success requeue, the entry's final return stands for the
	// success return; when it is bare, a deferred closure's failure
	// assignment to the named error is what that return hands back last.
	bareEnd := success == nil && endsBare(f.entry)
	// (A deletion path the body falls through to is past its end.)
	final := token.Pos(f.entry.Syntax().End())
	if b := body(f.entry); b != nil && len(b.List) > 0 {
		live := a.liveList(a.infoAt(b.Pos()), f.entry, b.List, kind)
		final = live[len(live)-1].End()
		if last, ok := live[len(live)-1].(*ast.ReturnStmt); ok && len(last.Results) == 1 {
			final = last.Pos()
		}
	}
	var primary *retSite
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) {
			continue
		}
		switch {
		case success != nil:
			// Found below, along the returns that hand the success back.
		case bareEnd && r.deferred:
			if primary == nil || !primary.deferred || r.pos > primary.pos {
				primary = r
			}
		case r.posIn(f.entry).IsValid() && r.posIn(f.entry) < final && (primary == nil || !primary.deferred && (r.posIn(f.entry) > primary.posIn(f.entry) || r.posIn(f.entry) == primary.posIn(f.entry) && r.laterThan(primary, f.entry))):
			// The entry's failure returns, and those it hands back from
			// a helper before its final return (what that return hands
			// back is the success path's), but a helper's end that hands
			// back only its status write's failure (as at the end of the
			// success path, below).
			if a.savedEnd(r, kind) || a.reportedAt(f.entry, r.posIn(f.entry)) {
				continue
			}
			primary = r
		}
	}
	unsettledErr := ""
	if bareEnd && primary != nil && primary.deferred {
		unsettledErr = a.fillsNilOnly(f.entry, primary)
	}
	switch {
	case success != nil:
		primary = a.lastFailureBefore(rets, success, isFailure)
		for i := range rets {
			if r := &rets[i]; r.split && r.at.Pos() == success.at.Pos() && r.in == success.in && !a.savedOnlyError(r, kind) {
				// The success return hands back the pass's error too:
				// where it is set, that return is the main work's
				// failure.
				primary = r
			}
		}
	case len(steady) > 1:
		// The failure return that handles the main work's error, when
		// every steady-state candidate gives the same one.
		primary = nil
		for i, c := range steady {
			p := a.lastFailureBefore(rets, c, isFailure)
			if i > 0 && p != primary {
				unsettledErr = "not settled: the success returns " + a.siteList(steady) + " are neither after the other, and the failure returns before them differ"
				primary = nil
				break
			}
			primary = p
		}
	case !bareEnd || primary == nil || !primary.deferred:
		// (A bare end whose error a deferred closure sets hands back
		// that.)
		if r := a.entrySplitEnd(f.entry, kind, rets); r != nil {
			// The entry's final return hands back the pass's error with
			// its result (return result, errors.Join(err, patch())): its
			// failing half is the main work's failure, as at a success
			// return that does.
			primary = r
		} else if r := a.workErrorReturn(f.entry, kind, rets, isFailure); r != nil {
			primary = r
		} else if r := a.handedWorkError(f.entry, kind, rets, isFailure); r != nil {
			rets = append(rets, *r)
			primary = &rets[len(rets)-1]
		} else if end := a.successPathEnd(f.entry, kind); end != nil && len(end.via) > 0 {
			// The entry's success path ends in a helper it hands the
			// results of whole (return r.reconcileNormal(…)): the main
			// work's failure is the one branching off nearest that
			// helper's end, not a return of the entry's before it.
			// When that end is itself a failure return (return
			// ctrl.Result{}, r.Update(…)), it is the main work's, as the
			// entry's own final return would be.
			if r := endFailure(rets, end, isFailure); r != nil && !a.savedOnlyError(r, kind) && !a.reportedAt(end.in, end.pos) {
				primary = r
			} else if r := a.lastFailureBefore(a.withoutSavedEnds(rets, kind), end, isFailure); r != nil {
				primary = sameRet(rets, r)
			}
		}
	}
	if unsettledErr == "" {
		primary, unsettledErr = a.statusEndAsWork(rets, primary, kind, isFailure)
	}
	if unsettledErr == "" {
		primary, unsettledErr = a.pastStatusWrite(rets, primary, kind, isFailure)
	}
	if unsettledErr == "" {
		unsettledErr = a.stateDispatched(f.entry, kind, primary, rets, isFailure)
	}
	// Under a deferred function that sets both named results, a result
	// it takes from a call not followed is where the main work's failure
	// is made, whatever the returns before the defer do.
	// So is a result it hands back that may requeue after an interval
	// with an error ctrlcmp does not tell nil or not (not split: the
	// result and the error not handed through together): a success may
	// requeue there, and the main work's failure come back there.
	openDeferred := ""
	if overridden && success == nil && len(steady) == 0 {
		for _, r := range deferred {
			if r.class == ClassErrorBackoff && !r.split && r.after != nil {
				s := a.site(r.pos)
				openDeferred = fmt.Sprintf("not settled: the deferred function sets the results every return after it hands back; at %s:%d they are a result that may requeue after an interval and an error ctrlcmp does not tell nil or not, where a success may requeue and the main work's failure come back", s.File, s.Line)
				break
			}
		}
	}
	if openDeferred != "" && unsettledErr == "" {
		unsettledErr = openDeferred
	}
	// A success path that ends in what a function not analysed hands
	// back: the main work's failure and its success are there, unread,
	// whatever success an earlier return makes.
	unread := ""
	if len(steady) <= 1 {
		unread = a.unreadEnd(f.entry, kind)
	}
	if unread != "" && unsettledErr == "" {
		unsettledErr = unread
	}
	if overridden && success == nil && unsettledErr == "" {
		for _, r := range deferred {
			if r.opaque != nil {
				s := a.site(r.pos)
				unsettledErr = fmt.Sprintf("not settled: the deferred function at %s:%d sets the results every return after it hands back, from %s, which ctrlcmp does not follow into: the main work's failure is made there", s.File, s.Line, a.exprText(callee(r.opaque)))
				break
			}
		}
	}
	// The failing half of a return whose result is not followed is the
	// main work's failure when no other return fails; else which one is
	// the main work's is not told (the success return is not known).
	if primary != nil && unsettledErr == "" && (primary.split || primary.half) && success == nil && len(steady) == 0 {
		for i := range rets {
			r := &rets[i]
			if r.opaque == nil || r.at.Pos() != primary.at.Pos() || r.in != primary.in {
				continue
			}
			for j := range rets {
				if o := &rets[j]; isFailure(o.class) && o.at.Pos() != primary.at.Pos() {
					at := primary.pos
					if p := primary.posIn(f.entry); p.IsValid() {
						at = p // where the entry hands it back
					}
					s := a.site(at)
					unsettledErr = fmt.Sprintf("not settled: the result handed back at %s:%d is %s, so the success return is not known: the main work's failure may be the one returned there or at %s", s.File, s.Line, a.builtBy(r), fileLine(a.site(o.pos)))
					break
				}
			}
			break
		}
	}
	// A site whose error is not followed, nearer the success path than
	// the failure chosen, may be the main work's failure; so may one
	// inside a result not followed there (a helper's interval copied).
	for i := range rets {
		r := &rets[i]
		if primary != nil && unsettledErr == "" && r.opaque != nil && success == nil && len(steady) == 0 {
			// A result built where ctrlcmp does not follow, handed back
			// after the failure chosen (the final return aggregating
			// the pass's errors): the main work's failure may come back
			// there.
			if at := r.posIn(primary.in); at.IsValid() && at > primary.pos {
				s := a.site(at)
				unsettledErr = fmt.Sprintf("not settled: the result handed back at %s:%d is %s: the main work's failure may come back there, after the failure return at %s", s.File, s.Line, a.builtBy(r), fileLine(a.site(primary.pos)))
				continue
			}
		}
		if primary == nil || unsettledErr != "" || r.in != primary.in || r.pos <= primary.pos {
			continue
		}
		s := a.site(r.pos)
		switch {
		case r.errOpen:
			unsettledErr = fmt.Sprintf("not settled: what is handed back at %s:%d is not followed (%s): a failure there may be the main work's", s.File, s.Line, r.note)
		case r.copyOpen && success == nil:
			unsettledErr = fmt.Sprintf("not settled: the result handed back at %s:%d is not followed: the main work's failure may be where it is made", s.File, s.Line)
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
		if r.class == classImmediateRetry {
			s.Class = ClassImmediate
		}
		s.Note = r.note
		if r == primary {
			s.Primary = true
		}
		errSites = append(errSites, s)
	}
	if primary == nil && len(errSites) > 0 && unsettledErr == "" {
		for i := range errSites {
			if errSites[i].Class != ClassTerminal {
				errSites[i].Primary = true
				break
			}
		}
	}
	if unsettledErr != "" {
		for i := range errSites {
			errSites[i].Primary = false
		}
	}
	errRow := Row{Sites: errSites}
	if unsettledErr != "" {
		errRow.None = unsettledErr
	} else if _, ok := (Row{Sites: errSites}).Primary(); !ok {
		errRow = noneAfter("no failure path returns an error or a retry requeue", searched)
		if len(errSites) > 0 {
			errRow.Sites = errSites
			errRow.None = "every failure return is terminal: nothing comes back on error"
		}
	}
	if primary != nil && primary.class == ClassRetryAfterFailure {
		out.retry = &timedRequeue{in: primary.afterFn(), at: primary.at, duration: primary.after}
	}
	if len(steady) > 1 {
		out.onError = errRow
		out.onSuccess = none("not settled: the success returns " + a.siteList(steady) + " both requeue after an interval with a nil error, and neither comes after the other (they are in branches of one if or cases of one switch, or reached through different callees): which is the steady state is not settled")
		return out
	}
	if openDeferred != "" {
		out.onError, out.onSuccess = errRow, none(openDeferred)
		return out
	}
	if unread != "" {
		if success != nil {
			s := a.site(success.pos)
			unread += fmt.Sprintf("; the return at %s:%d, which requeues after an interval, may not be the steady state", s.File, s.Line)
		}
		out.onError, out.onSuccess = errRow, none(unread)
		return out
	}
	if success != nil {
		if why := a.droppedWhy(success); why != "" {
			out.onError, out.onSuccess = errRow, none(why)
			return out
		}
		if why := a.dispatchedSuccess(success); why != "" {
			out.onError, out.onSuccess = errRow, none(why)
			return out
		}
		if alt, test := a.stateAlternative(rets, success, kind); alt != nil {
			s, o, t := a.site(success.pos), a.site(alt.pos), a.site(test.Pos())
			out.onError, out.onSuccess = a.errorPastWaits(errRow, rets, []*retSite{success, alt}, isFailure), none(fmt.Sprintf("not settled: the success return at %s:%d requeues after an interval and the one at %s:%d does not, as the test of the object's status at %s:%d decides: whether the first is the steady state's interval or a wait while that state lasts is decided by the object's state, not the code", s.File, s.Line, o.File, o.Line, t.File, t.Line))
			return out
		}
	}
	if success == nil {
		// Prefer a result built by a call (a builder) to one merely held
		// in a variable.
		sort.SliceStable(rets, func(i, j int) bool { return isCall(rets[i].opaque) && !isCall(rets[j].opaque) })
		for _, r := range rets {
			if r.opaque != nil {
				s := a.site(r.pos)
				at := s
				if a.fileOwn(r.opaque.Pos()) {
					// Where the engine's trail ends, not the return.
					at = a.site(r.opaque.Pos())
				}
				why := fmt.Sprintf("the result is built by %s at %s:%d, which ctrlcmp does not follow into", a.exprText(callee(r.opaque)), at.File, at.Line)
				if r.note != "" {
					why = fmt.Sprintf("%s at %s:%d", r.note, s.File, s.Line)
				}
				out.onError, out.onSuccess = errRow, none("not settled: "+why+"; read it to see whether a success requeues (no return on the paths it follows sets RequeueAfter)")
				return out
			}
		}
		if why := a.dispatchedWait(f.entry, kind, rets); why != "" {
			out.onError, out.onSuccess = errRow, none(why)
			return out
		}
		// No steady-state requeue, but a wait with a nil error on a path
		// that did not fail: after work that succeeded (a child just
		// created) first, else on something else (a child still
		// terminating). That is the requeue a success makes.
		// A wait on the deletion branch (a finalizer's cleanup still
		// running) is not the success path's.
		if why := a.kindWaitUnsettled(rets, kind); why != "" {
			out.onError, out.onSuccess = errRow, none(why)
			return out
		}
		if r := a.waitPrimary(rets, kind); r != nil {
			s := a.site(r.pos)
			if tied := a.tiedWaits(rets, r, kind); len(tied) > 0 {
				out.onError, out.onSuccess = a.errorPastWaits(errRow, rets, append([]*retSite{r}, tied...), isFailure), a.tiedWaitsRow(r, tied)
				if a.tracedAlike(kind, reach, append([]*retSite{r}, tied...)) {
					// Whichever is the success's, what it waits for
					// is set by the same fields (or by none).
					out.success = &timedRequeue{in: r.afterFn(), at: r.at, duration: r.after,
						note: fmt.Sprintf("the first of %d waits that rank alike, among which the requeue on success row does not choose: each one's duration traces to the same fields of the object, or to none", len(tied)+1)}
				}
				return out
			}
			if r.open {
				out.onError, out.onSuccess = errRow, none(fmt.Sprintf("not settled: the return at %s:%d hands back, with an error that may be nil, the interval %s, which a call made and an if tests together with the error; whether a success waits there (a dependency) or a failure the call absorbed retries is decided in the call; no return on the success path sets a constant RequeueAfter before it", s.File, s.Line, a.exprText(r.after)))
				return out
			}
			if why := a.droppedWhy(r); why != "" {
				out.onError, out.onSuccess = errRow, none(why)
				return out
			}
			if c := a.dispatchedResult(r); c != nil {
				at := a.site(c.expr.Lparen)
				out.onError, out.onSuccess = errRow, none(fmt.Sprintf("not settled: the return at %s:%d hands back the result %s made at %s:%d, a call that may run %d functions of the tree: which of them makes it wait, and for which of its callers' values, is not followed", s.File, s.Line, a.exprText(c.expr), at.File, at.Line, len(c.own)))
				return out
			}
			out.success = &timedRequeue{in: r.afterFn(), at: r.at, duration: r.after}
			s.Class = ClassDependencyWait
			s.Primary = true
			what := "a wait on something else than the object (a dependency, a child still terminating), with a nil error"
			if r.afterWork {
				what = "a wait after work that succeeded, on what that work made"
			}
			s.Note = joinNotes(r.note, what+"; the final success return does not requeue: the steady state is event-driven")
			out.onError, out.onSuccess = errRow, Row{Sites: []Site{s}}
			return out
		}
		for _, r := range rets {
			if r.signal == "" || r.deferred {
				continue
			}
			at := a.site(r.pos)
			out.onError, out.onSuccess = errRow, none(fmt.Sprintf("not settled: the return at %s:%d requeues after the interval the error %s carries, which errors.As picks out: the request is made where such an error is made, as a retry after a failure or as a wait on a dependency, which the return does not tell; no other return on the success path sets RequeueAfter", at.File, at.Line, r.signal))
			return out
		}
		reason := "event-driven only: no return on the success path sets RequeueAfter, so the object is reconciled again only on watch events"
		if ps := a.syncPeriods(); len(ps) > 0 {
			reason += fmt.Sprintf(" and the cache's resync every %s (%s:%d)", ps[0].Note, ps[0].File, ps[0].Line)
		} else {
			reason += " and the cache's periodic resync (no SyncPeriod is set in the tree: controller-runtime's default applies)"
		}
		for _, r := range rets {
			if r.class == ClassImmediate || r.class == classImmediateRetry {
				// Requeue: true with a nil error: not an interval, but
				// not event-driven either.
				at := a.site(r.pos)
				reason = fmt.Sprintf("no timed requeue: no return on the success path sets RequeueAfter; the return at %s:%d asks for an immediate requeue (Requeue: true, rate-limited), otherwise the object is reconciled again on watch events", at.File, at.Line)
				break
			}
		}
		out.onError, out.onSuccess = errRow, noneAfter(reason, searched)
		return out
	}
	out.success = &timedRequeue{in: success.afterFn(), at: success.at, duration: success.after}
	out.onError, out.onSuccess = errRow, a.successRow(success.pos, success.note)
	return out
}

// classImmediateRetry is, inside the requeue search, the class of a
// Requeue: true with a nil error under a test of a failure (or in a branch
// that logs one): the failure's retry at once, a requeue on error, shown
// as ClassImmediate.
const classImmediateRetry = "immediate-retry"
