package locate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// queueRequeues answers the requeue rows of a client-go controller from its
// worker: AddRateLimited on failure, AddAfter on success; the resync period
// an event-driven one cites is that of the primary type's informers. read
// is the re-read of the object, whose hand-back to an enqueue helper puts
// it back on the queue.
func (a *analysis) queueRequeues(f *found, reach *callgraph.Reach, kind *types.Named, read reread) *requeues {
	out := &requeues{}
	var fns []*ssa.Function
	if f.worker != nil {
		fns = withClosures(f.worker)
	}
	var rateLimited, after, forget []Site
	// retries are the delayed re-adds under a test of a failure.
	var retries []Site
	// beforeWork are the worker's AddRateLimited calls made before it
	// hands the object it read to the work: a failed read's, not the
	// work's.
	var beforeWork []Site
	// workCalls are where the work's AddRateLimited and Forget calls stand,
	// for a worker that hands the object it read to a work that requeues
	// it itself.
	var workCalls []queueCall
	// timed are the requeues of after, one for each of its sites.
	var timed []*timedRequeue
	var unsettledAt []string
	// unreadOpts are the priority queue's adds whose options are not read:
	// each may be rate-limited or delayed.
	var unreadOpts []string
	// syncDelays are the worker's AddAfter calls that wait the delay the
	// sync returned (a field of its result): the sync's returns say which
	// requeue each is; shape is that result's type.
	var syncDelays []Site
	var shape resultShape
	// rateLimitedAt are the calls of rateLimited, in order.
	var rateLimitedAt []rateLimitedCall
	// readded are the worker's plain Adds of the key it took off the
	// queue under a test of a failure, and everyPass those nothing guards
	// (the key comes back at once on every pass, failed or not).
	var readded, everyPass []Site
	// unproven are the plain Adds to the worker's queue on the reconcile
	// path, made by the worker or through the tree's enqueue helper, of a
	// key ctrlcmp does not tell apart from the dequeued one, under a test
	// of a failure or of nothing (under a test of something else, an Add
	// is an enqueue: a one-time step).
	var unproven []Site
	queue := a.workerQueue(f)
	worker := map[*ssa.Function]bool{}
	scan := func(fn *ssa.Function) {
		info := a.infoAt(posOf(fn))
		for _, c := range a.callsIn(fn) {
			if !c.known && info != nil {
				// A dependency handed the queue may requeue in its body.
				if r := a.depRequeue(info, c); r.site != nil {
					s := a.site(c.expr.Lparen)
					s.Class = ClassSuccessInterval
					s.Note = fmt.Sprintf("hands the queue to %s, whose body calls AddAfter (%s:%d)", cite.ObjectName(c.fn), r.site.File, r.site.Line)
					r.site.Note = "the AddAfter in the dependency's body"
					after = append(after, s, *r.site)
					tr := &timedRequeue{in: fn, at: c.expr, duration: r.duration}
					timed = append(timed, tr, tr)
				} else if r.unsettled != "" {
					unsettledAt = append(unsettledAt, r.unsettled)
				}
				continue
			}
			if !c.known {
				continue
			}
			switch c.fact.Role {
			case RoleQueueAddRateLimited:
				s := a.site(c.expr.Lparen)
				s.Class = ClassErrorBackoff
				if f.handoff.IsValid() && fn == f.worker && c.expr.Pos() < f.handoff {
					s.Note = "the worker's read of the object failed, before the work ran"
					beforeWork = append(beforeWork, s)
					continue
				}
				rateLimited = append(rateLimited, s)
				rateLimitedAt = append(rateLimitedAt, rateLimitedCall{info, c.expr})
				workCalls = append(workCalls, queueCall{fn, c.expr.Pos(), false})
			case RoleQueueAddAfter:
				if otherQueue(info, c.expr, queue) || a.anotherMadeQueue(info, c.expr, queue) {
					continue // a delayed Add to another queue (a status queue, a prober's)
				}
				s := a.site(c.expr.Lparen)
				s.Class = ClassSuccessInterval
				if fn == f.worker && a.delayFromSync(fn, info, c) {
					// The delay the sync hands back, maybe nil.
					if why := a.returnedDelays(f.entry); why != "" {
						unsettledAt = append(unsettledAt, fmt.Sprintf("the worker's AddAfter at %s:%d waits the delay the sync returns, and %s", s.File, s.Line, why))
					}
					continue
				}
				if sh, ok := a.syncResultDelay(f, fn, info, c); ok && worker[fn] {
					shape = sh
					s.Class = ""
					s.Note = "the worker adds the key again after the delay the sync returned: which requeue that is, the sync's return that set it says"
					syncDelays = append(syncDelays, s)
					continue
				}
				if info != nil {
					// What the conditions around the call test says what
					// it waits on (as for a returned RequeueAfter): a
					// failure's retry goes with the requeues on error, a
					// read that found its object absent waits for it. In the
					// sync path a test of something else is a wait on it;
					// the worker's own re-add under such a test (the delay
					// the sync asked for) is the interval.
					g, absent := a.requeueGuard(info, c.expr, kind, fn), false
					if g == guardNone && fn != f.entry && !worker[fn] {
						// A helper that only adds: its callers say when
						// (under a test that found a read's object
						// absent, it waits for it).
						var why string
						if g, absent, why = a.helperAddGuard(reach, fn, kind, &s); why != "" {
							unsettledAt = append(unsettledAt, why)
							continue
						}
					}
					switch {
					case g == guardError && (absent || a.absentWait(info, c.expr, nil)):
						s.Class = ClassDependencyWait
					case g == guardError:
						s.Class = ClassRetryAfterFailure
						retries = append(retries, s)
						continue
					case g == guardOther:
						if !worker[fn] || a.steadySyncSkips(f, fn, c.expr, kind) {
							s.Class = ClassDependencyWait
						}
					}
				}
				after = append(after, s)
				timed = append(timed, &timedRequeue{in: fn, at: c.expr, duration: c.delay})
			case RoleQueueAdd:
				if !worker[fn] {
					continue // an enqueue
				}
				if otherQueue(info, c.expr, queue) {
					continue // an Add to another queue (a status queue)
				}
				if !a.readdsDequeued(fn, c) {
					// Another key, or the dequeued one through a value
					// not followed (a struct, a closure's argument): on
					// the worker's own queue, where a failure or every
					// pass may put it, it may be a requeue.
					if queue != nil && info != nil && a.requeueGuard(info, c.expr, kind, fn) != guardOther {
						unproven = append(unproven, a.site(c.expr.Lparen))
					}
					continue
				}
				s := a.site(c.expr.Lparen)
				s.Class = ClassImmediate
				g := guardNone
				if info != nil {
					g = a.requeueGuard(info, c.expr, kind, fn)
				}
				switch {
				case g == guardError && f.handoff.IsValid() && fn == f.worker && c.expr.Pos() < f.handoff:
					s.Note = "the worker's read of the object failed, before the work ran: the key is added back at once"
					beforeWork = append(beforeWork, s)
				case g == guardError:
					s.Note = "a failure adds the key back at once: a plain Add, not rate-limited"
					readded = append(readded, s)
				case g == guardNone:
					s.Note = "the worker adds the key back at once on every pass, whether the work failed or not"
					everyPass = append(everyPass, s)
				}
			case RoleQueueForget:
				forget = append(forget, a.site(c.expr.Lparen))
				if !(fn == f.worker && c.expr.Pos() < f.handoff) {
					workCalls = append(workCalls, queueCall{fn, c.expr.Pos(), true})
				}
			case RoleQueueAddWithOpts:
				s := a.site(c.expr.Lparen)
				unreadOpts = append(unreadOpts, fmt.Sprintf("the queue's AddWithOpts at %s:%d is handed options that are not a literal ctrlcmp reads", s.File, s.Line))
			}
		}
	}
	inReach := map[*ssa.Function]bool{}
	for _, fn := range reach.Funcs() {
		inReach[fn] = true
	}
	fns = append(fns, a.workerHelpers(fns, f.entry, inReach)...)
	for _, fn := range fns {
		worker[fn] = true
		scan(fn)
	}
	for _, fn := range reach.Funcs() {
		if !worker[fn] {
			scan(fn) // the worker itself is the entry of a worker that reads the object
		}
	}
	readds, others := a.objectReadds(f, reach, read)
	for _, r := range others {
		if info := a.infoAt(posOf(r.in)); info != nil && a.requeueGuard(info, r.expr, kind, r.in) != guardOther {
			unproven = append(unproven, a.site(r.expr.Lparen))
		}
	}
	for _, r := range readds {
		s := a.site(r.expr.Lparen)
		s.Class = ClassImmediate
		g := guardOther
		if info := a.infoAt(posOf(r.in)); info != nil {
			g = a.requeueGuard(info, r.expr, kind, r.in)
		}
		if g == guardNone && r.in != f.entry && !worker[r.in] {
			// (Under tests of something else: an every-pass re-add still.)
			if g, _, _ = a.callersGuard(reach, r.in, kind); g == guardOther {
				g = guardNone
			}
		}
		switch g {
		case guardError:
			s.Note = "a failure hands the object back to the enqueue helper: its key is added back at once, a plain Add, not rate-limited"
			readded = append(readded, s)
		case guardNone:
			s.Note = "every pass hands the object back to the enqueue helper: its key is added back at once"
			everyPass = append(everyPass, s)
		}
	}
	// The delays the sync returns: its returns, classified as a
	// reconciler's are, are the requeues the worker's AddAfter makes.
	var fromSync *requeues
	if len(syncDelays) > 0 && shape.requeue != "" && len(rateLimitedAt) == len(rateLimited) {
		// The worker's AddRateLimited under a test of the result's
		// requeue field is the immediate requeue the sync asked for,
		// not the failure's: it goes last, classed so.
		var failed, immediate []Site
		for i, s := range rateLimited {
			if a.underField(rateLimitedAt[i].info, rateLimitedAt[i].expr, shape.requeue) {
				s.Class = ClassImmediate
				s.Note = "the sync asked for the key back at once (its result's requeue field)"
				immediate = append(immediate, s)
				continue
			}
			failed = append(failed, s)
		}
		if len(failed) > 0 {
			rateLimited = append(failed, immediate...)
		}
	}
	if len(syncDelays) > 0 {
		fromSync = a.shapedRequeues(f, reach, kind, shape)
		for _, s := range fromSync.onError.Sites {
			if s.Class == ClassRetryAfterFailure {
				s.Primary = false
				retries = append(retries, s)
			}
		}
	}
	specialFirst := ""
	switch i := a.generalFailureAdd(rateLimited, rateLimitedAt); {
	case i > 0:
		rateLimited[0], rateLimited[i] = rateLimited[i], rateLimited[0]
	case i < 0:
		specialFirst = fmt.Sprintf("not settled: the worker's AddRateLimited at %s:%d stands under a test of what the error is (a special case), and the one other failures take is made where its order after it is not read", rateLimited[0].File, rateLimited[0].Line)
	}
	if f.handoff.IsValid() {
		if i := a.mainWorkFailure(workCalls); i > 0 {
			rateLimited[0], rateLimited[i] = rateLimited[i], rateLimited[0]
		}
	}
	rateLimited = append(rateLimited, beforeWork...)
	// The sync's own failure returns are what triggers AddRateLimited; a
	// worker that calls none only logs them, and they requeue nothing.
	var syncErrs []Site
	if b := body(f.entry); b != nil && len(rateLimited) > 0 {
		info := a.infoAt(b.Pos())
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(n.Results) > 0 && !isNil(info, n.Results[len(n.Results)-1]) {
					if t := info.TypeOf(n.Results[len(n.Results)-1]); t != nil && implementsError(t) {
						s := a.site(n.Pos())
						s.Class = ClassErrorBackoff
						s.Note = "the sync fails, so the worker requeues the key rate-limited"
						syncErrs = append(syncErrs, s)
					}
				}
			}
			return true
		})
	}
	// The worker's re-add of the delay the sync returned decides, with no
	// other AddAfter, when a return of the sync sets that delay or one may
	// (not settled); when none does, the worker's AddAfter never runs
	// after a success.
	syncDecides := false
	if fromSync != nil && len(after) == 0 {
		_, ok := fromSync.onSuccess.Primary()
		syncDecides = ok || strings.HasPrefix(fromSync.onSuccess.None, "not settled")
	}
	// With no AddAfter, a delayed add through a timer (the tree's own or
	// a clock's): the calls that set its delay are read as AddAfter calls.
	var support []Site
	if len(after) == 0 && !syncDecides {
		t := a.timerRequeues(fns, reach, kind)
		unsettledAt = append(unsettledAt, t.unsettled...)
		for _, d := range t.arms {
			if d.site.Class == ClassRetryAfterFailure {
				retries = append(retries, d.site)
				continue
			}
			after = append(after, d.site)
			timed = append(timed, d.timed)
		}
		if len(after) > 0 {
			support = t.support
		}
	}
	errSites := slices.Concat(rateLimited, syncErrs, retries)
	if len(readded) > 0 || len(everyPass) > 0 {
		// The plain re-adds come after the rate-limited ones, before
		// those of a failed read.
		own := rateLimited[:len(rateLimited)-len(beforeWork)]
		errSites = slices.Concat(own, readded, everyPass, beforeWork, syncErrs, retries)
	}
	errRow := rowOf(errSites, "no AddRateLimited in the worker: a failed sync is only logged, so a failed key comes back only with the next event or resync")
	if why := cmp.Or(specialFirst, a.alternativeAdds(rateLimited, rateLimitedAt)); why != "" {
		for i := range errRow.Sites {
			errRow.Sites[i].Primary = false
		}
		errRow.None = why
	}
	if len(rateLimited) == 0 && len(unreadOpts) > 0 {
		errRow = none("not settled: " + strings.Join(unreadOpts, "; "))
	}
	mayReadd := ""
	if len(unproven) > 0 {
		mayReadd = fmt.Sprintf("the plain Add at %s:%d (and %d more) puts a key on the worker's queue on the reconcile path, and whether it is the dequeued one is not followed", unproven[0].File, unproven[0].Line, len(unproven)-1)
		if len(rateLimited) == len(beforeWork) && len(readded) == 0 && len(everyPass) == 0 {
			// No re-add of the work's own is proven: the failure that
			// brings the key back may be that Add's.
			errRow = none("not settled: " + mayReadd)
		}
	}
	unsettledAt = append(unsettledAt, unreadOpts...)
	if syncDecides {
		if _, ok := fromSync.onSuccess.Primary(); ok {
			out.success = fromSync.success
			out.onError, out.onSuccess = errRow, Row{Sites: append(slices.Clone(fromSync.onSuccess.Sites), syncDelays...)}
			return out
		}
		at := syncDelays[0]
		out.onError, out.onSuccess = errRow, Row{Sites: syncDelays, None: fmt.Sprintf("%s; the worker's AddAfter at %s:%d waits the delay the sync returns", fromSync.onSuccess.None, at.File, at.Line)}
		return out
	}
	if len(after) > 0 {
		// The interval, else a wait on something else: the final success
		// return then does not requeue.
		best, why := a.steadyAdd(after, timed)
		if best < 0 {
			out.onError, out.onSuccess = errRow, Row{Sites: append(after, support...), None: why}
			return out
		}
		if after[best].Class == ClassDependencyWait {
			after[best].Note = joinNotes(after[best].Note, "a wait on something else than the object, with no failure; the final success return does not requeue: the steady state is event-driven")
		}
		after[0], after[best] = after[best], after[0]
		out.success = timed[best]
		out.onError, out.onSuccess = errRow, rowOf(append(after, support...), "")
		return out
	}
	if len(everyPass) > 0 {
		// No delay: the key is back at once, paced only by how fast the
		// workers take keys.
		out.onError, out.onSuccess = errRow, rowOf(slices.Clone(everyPass), "")
		return out
	}
	if mayReadd != "" {
		unsettledAt = append(unsettledAt, mayReadd)
	}
	if len(unsettledAt) > 0 {
		out.onError, out.onSuccess = errRow, none("not settled: "+strings.Join(unsettledAt, "; ")+"; no AddAfter elsewhere on the reconcile path or in the worker")
		return out
	}
	reason := "event-driven only: no AddAfter on the success path"
	if len(forget) > 0 {
		reason += fmt.Sprintf("; a successful sync calls Forget (%s:%d)", forget[0].File, forget[0].Line)
	}
	if rs := a.resyncs(kind); len(rs) > 0 {
		reason += fmt.Sprintf("; informer resync period %s (%s:%d)", rs[0].Note, rs[0].File, rs[0].Line)
	}
	out.onError, out.onSuccess = errRow, noneAfter(reason,
		fmt.Sprintf("AddAfter on the workqueue in the worker and the %d functions reachable from %s, and in the bodies of the dependency functions they hand the queue to", len(reach.Funcs()), a.funcName(f.entry)))
	return out
}

// depRequeue reads the body of a dependency function a call hands a
// workqueue (as its receiver or an argument: a value with the knowledge
// table's AddAfter), for a call of AddAfter, through the functions of the
// same module it hands the queue on to.
func (a *analysis) depRequeue(info *types.Info, c call) depResult {
	if c.fn == nil || len(c.own) > 0 || a.decls[c.fn.Origin()] != nil || c.fn.Pkg() == nil || isInterfaceMethod(c.fn) || !handsQueue(info, c.expr) {
		return depResult{}
	}
	if m := moduleOfPkg(a, c.fn.Pkg().Path()); m == "" {
		return depResult{} // the standard library
	}
	return a.depRequeueIn(c.fn, c.expr, 0, map[*types.Func]bool{})
}

// depRequeueIn reads one dependency function handed the queue by the call
// at, depth functions deep.
func (a *analysis) depRequeueIn(fn *types.Func, at *ast.CallExpr, depth int, seen map[*types.Func]bool) depResult {
	s := a.site(at.Lparen)
	if seen[fn.Origin()] {
		return depResult{}
	}
	seen[fn.Origin()] = true
	if depth >= depRequeueDepth {
		return depResult{unsettled: fmt.Sprintf("the queue is handed on further than %d dependency functions deep, to %s at %s:%d", depRequeueDepth, cite.ObjectName(fn), s.File, s.Line)}
	}
	b := a.depBody(fn.Origin())
	if b == nil || b.decl.Body == nil {
		return depResult{unsettled: fmt.Sprintf("%s, handed the queue at %s:%d, has a body ctrlcmp could not read", cite.ObjectName(fn), s.File, s.Line)}
	}
	var res depResult
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		e, ok := n.(*ast.CallExpr)
		if !ok || res.site != nil {
			return res.site == nil
		}
		callee, _ := typeutil.Callee(b.info, e).(*types.Func)
		if callee == nil {
			return true
		}
		if f, known := knowledge[funcKey(callee)]; known {
			role, delay := f.Role, ast.Expr(nil)
			switch {
			case f.Arg < 0 || f.Arg >= len(e.Args):
				return true
			case role == RoleQueueAddAfter:
				delay = e.Args[f.Arg]
			case role == RoleQueueAddWithOpts:
				role, delay = addByOptions(b.info, e.Args[f.Arg])
			}
			site := a.site(e.Lparen)
			switch role {
			case RoleQueueAddAfter:
				res = depResult{site: &site}
				if i := b.argParam(delay); i >= 0 && i < len(at.Args) {
					res.duration = at.Args[i]
				}
			case RoleQueueAddWithOpts:
				res = depResult{unsettled: fmt.Sprintf("%s, handed the queue at %s:%d, calls AddWithOpts with options ctrlcmp does not read (%s:%d)", cite.ObjectName(fn), s.File, s.Line, site.File, site.Line)}
			}
			return true
		}
		if callee.Pkg() == nil || isInterfaceMethod(callee) || !handsQueue(b.info, e) || moduleOfPkg(a, callee.Pkg().Path()) != moduleOfPkg(a, fn.Pkg().Path()) {
			return true
		}
		if r := a.depRequeueIn(callee, e, depth+1, seen); r.site != nil || r.unsettled != "" {
			res = depResult{site: r.site, unsettled: r.unsettled}
			// The duration, an argument of e, may be a parameter here.
			if i := b.argParam(r.duration); r.duration != nil && i >= 0 && i < len(at.Args) {
				res.duration = at.Args[i]
			}
		}
		return true
	})
	return res
}

// maxWorkerHelperDepth bounds the calls a worker's helpers are followed
// through.
const maxWorkerHelperDepth = 3

// workerHelpers are the tree's own functions a worker's functions call
// statically (or through a dynamic call the engine settles to one),
// directly or through each other, other than the sync entry and what it
// reaches: the helper a failed key is handed to (handleErr(err, key)), a
// branch or a loop moved out of the worker. What they do with the queue is
// the worker's.
func (a *analysis) workerHelpers(worker []*ssa.Function, entry *ssa.Function, inReach map[*ssa.Function]bool) []*ssa.Function {
	seen := map[*ssa.Function]bool{entry: true}
	for _, fn := range worker {
		seen[fn] = true
	}
	var out []*ssa.Function
	level := worker
	for depth := 0; depth < maxWorkerHelperDepth && len(level) > 0; depth++ {
		var next []*ssa.Function
		for _, fn := range level {
			for _, c := range a.callsIn(fn) {
				// Only a call that runs one function: a call the
				// call graph answers with several (a shared worker's
				// sync through an interface) runs other controllers.
				callee := a.oneFunc(c)
				if callee == nil || dynamicCall(&c) || seen[callee] || inReach[callee] {
					continue
				}
				seen[callee] = true
				next = append(next, withClosures(callee)...)
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// handsQueue reports whether a call hands a workqueue (a value with the
// knowledge table's AddAfter) as its receiver or one of its arguments.
func handsQueue(info *types.Info, e *ast.CallExpr) bool {
	args := append([]ast.Expr(nil), e.Args...)
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil {
			args = append(args, sel.X)
		}
	}
	for _, arg := range args {
		t := info.TypeOf(arg)
		if t == nil {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, methodAddAfter)
		if fn, ok := obj.(*types.Func); ok && knowledge[funcKey(fn)].Role == RoleQueueAddAfter {
			return true
		}
	}
	return false
}

// moduleOfPkg is the module path of a loaded package ("" for the standard
// library, or a package not loaded).
func moduleOfPkg(a *analysis, path string) string {
	for _, p := range a.tree.All {
		if p.PkgPath == path && p.Module != nil {
			return p.Module.Path
		}
	}
	return ""
}

// addByOptions is the add a priority queue's AddWithOpts makes, read from
// its options literal, and the delay of one after a delay: RateLimited set
// true takes the key back after a failure (the queue waits the longer of
// After and the rate limiter's delay), an After alone after that delay, and
// neither at once. Options that are not a literal whose RateLimited is a
// constant leave the role RoleQueueAddWithOpts: the add is not settled.
func addByOptions(info *types.Info, opts ast.Expr) (Role, ast.Expr) {
	if u, ok := ast.Unparen(opts).(*ast.UnaryExpr); ok && u.Op == token.AND {
		opts = u.X
	}
	lit, ok := ast.Unparen(opts).(*ast.CompositeLit)
	if !ok {
		return RoleQueueAddWithOpts, nil
	}
	var after ast.Expr
	rateLimited := false
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return RoleQueueAddWithOpts, nil
		}
		key, _ := kv.Key.(*ast.Ident)
		switch {
		case key == nil:
			return RoleQueueAddWithOpts, nil
		case key.Name == "After":
			after = kv.Value
		case key.Name == "RateLimited":
			tv, ok := info.Types[kv.Value]
			if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
				return RoleQueueAddWithOpts, nil
			}
			rateLimited = constant.BoolVal(tv.Value)
		}
	}
	switch {
	case rateLimited:
		return RoleQueueAddRateLimited, nil
	case after != nil:
		return RoleQueueAddAfter, after
	}
	return RoleQueueAdd, nil
}
