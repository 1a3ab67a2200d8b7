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

// lastFailureBefore is the failure return that handles the main work's
// error: the failure return that branches off the path to the success
// return nearest to it, in the function that returns it; when that
// function has none (a helper that only builds the result), nearest to
// the return that hands the success back, one function out at a time.
// Where a failure branches off is the statement holding it before the
// success path's (the if of `if err != nil { return … }`), or the if
// whose other branch holds it: a branch extracted into a helper, or the
// test inverted into `if err == nil { return rest(…) } else {…}`, keeps
// it.
func (a *analysis) lastFailureBefore(rets []retSite, success *retSite, isFailure func(string) bool) *retSite {
	levels := []retHop{{in: success.in, pos: success.pos}}
	for i := len(success.via) - 1; i >= 0; i-- {
		levels = append(levels, success.via[i])
	}
	for _, l := range levels {
		var primary *retSite
		at, off := token.NoPos, token.NoPos
		for i := range rets {
			r := &rets[i]
			p := r.posIn(l.in)
			if !isFailure(r.class) || !p.IsValid() {
				continue
			}
			// Where the failure branches off the success path, not
			// where its return stands: the nearest branch first, and
			// of two off one statement the later.
			b, ok := a.branchOff(p, l.pos)
			if ok && (b > off || b == off && p > at) {
				primary, at, off = r, p, b
			}
		}
		if primary != nil {
			return primary
		}
	}
	return nil
}

// steadyStates are the success candidates no other one is steadier than
// (steadier): one when a rule settles them. A candidate on the way out of
// a state (transitional) gives way to those that are not.
func (a *analysis) steadyStates(cands []*retSite) []*retSite {
	if kept := slices.DeleteFunc(slices.Clone(cands), a.transitional); len(kept) > 0 {
		cands = kept
	}
	var out []*retSite
	for _, c := range cands {
		beaten := false
		for _, d := range cands {
			if d != c && a.steadier(d, c) > 0 {
				beaten = true
				break
			}
		}
		if !beaten {
			out = append(out, c)
		}
	}
	return out
}

// builtBy says where the trail of a result not followed ends: built by a
// call ctrlcmp does not follow into, or why it stops there (the site's
// note).
func (a *analysis) builtBy(r *retSite) string {
	if r.note != "" {
		return "not read: " + r.note
	}
	return "built by " + a.exprText(callee(r.opaque)) + ", which ctrlcmp does not follow into"
}

// siteList names sites as file:line, joined for a reason.
func (a *analysis) siteList(rs []*retSite) string {
	var parts []string
	for _, r := range rs {
		s := a.site(r.pos)
		parts = append(parts, fmt.Sprintf("%s:%d", s.File, s.Line))
	}
	return strings.Join(parts, " and ")
}

// posIn is where fn hands back the site's results: the site itself when it
// is fn's, else the last return of fn that hands them back whole (return
// r.fail(err), a branch extracted into a helper); NoPos when fn does not,
// or hands them back only after testing them (res, err := f(); …; return
// res, err: a failure of f returned first).
func (r *retSite) posIn(fn *ssa.Function) token.Pos {
	if r.in == fn {
		return r.pos
	}
	for i := len(r.via) - 1; i >= 0; i-- {
		if r.via[i].in == fn {
			if r.via[i].pair {
				return token.NoPos
			}
			return r.via[i].pos
		}
	}
	return token.NoPos
}

// laterThan reports whether the site r stands after p where both are
// handed back at one return of fn (two failure returns of a branch moved
// into a helper, return r.fail(…)): the first place below it where their
// hops part, in the function both pass through, orders them.
func (r *retSite) laterThan(p *retSite, fn *ssa.Function) bool {
	hops := func(s *retSite) []retHop {
		return append(slices.Clone(s.via), retHop{in: s.in, pos: s.pos})
	}
	rh, ph := hops(r), hops(p)
	below := false
	for i := 0; i < len(rh) && i < len(ph); i++ {
		if rh[i].in != ph[i].in {
			return false
		}
		if !below {
			below = rh[i].in == fn
			continue
		}
		if rh[i].pos != ph[i].pos {
			return rh[i].pos > ph[i].pos
		}
	}
	return false
}

// workErrorReturn is, when the entry's success path ends by handing the
// main work's error to a helper whose results it returns (err =
// r.work(…); return r.status(ctx, obj, err)), the failure return of that
// helper that returns the error it was handed: the one that handles the
// main work's error. The success path's end is followed through the
// returns that hand a helper's results back whole, and through an if
// that tests an error against nil (its branch where the error is nil);
// the handed error through the helpers it is passed on to. Nil when the
// entry does not end so, or the helper returns that error at no single
// failure return.
func (a *analysis) workErrorReturn(entry *ssa.Function, kind *types.Named, rets []retSite, isFailure func(string) bool) *retSite {
	fn, seen := entry, map[*ssa.Function]bool{}
	for !seen[fn] {
		seen[fn] = true
		ce, ok := ast.Unparen(a.handedBack(fn, a.successEnd(fn, kind))).(*ast.CallExpr)
		if !ok {
			return nil
		}
		info := a.infoAt(ce.Pos())
		arg := -1
		for i, e := range ce.Args {
			if t := info.TypeOf(e); t != nil && isErrorType(t) && !isNil(info, e) {
				if arg >= 0 {
					return nil // two errors handed: which is the work's is not said
				}
				arg = i
			}
		}
		c := a.makeCall(info, ce, fn)
		if c.known || len(c.own) != 1 || a.reportsSuccess(fn, info, ce) {
			return nil // (a report of the success hands back its own failure)
		}
		if arg < 0 {
			fn = c.own[0] // return r.rest(…): its end is the entry's
			continue
		}
		var found *retSite
		for i := range rets {
			r := &rets[i]
			if !isFailure(r.class) || !a.handsParam(r, c.own[0], arg) {
				continue
			}
			if found != nil {
				return nil
			}
			found = r
		}
		return found
	}
	return nil
}

// successPathEnd is where the entry's success path ends, as a site of no
// class: its final return (successEnd), followed through the returns that
// hand a helper's results back whole, each a hop; nil when the entry has
// no such end.
func (a *analysis) successPathEnd(entry *ssa.Function, kind *types.Named) *retSite {
	end := &retSite{in: entry}
	seen := map[*ssa.Function]bool{}
	for {
		seen[end.in] = true
		ret := a.successEnd(end.in, kind)
		if ret == nil {
			return nil
		}
		end.pos = ret.Pos()
		ce, ok := ast.Unparen(a.handedBack(end.in, ret)).(*ast.CallExpr)
		if pc := a.madePair(end.in, ret); pc != nil {
			ce, ok = pc, true
		}
		if !ok {
			return end
		}
		info := a.infoAt(ce.Pos())
		c := a.makeCall(info, ce, end.in)
		if c.known || len(c.own) != 1 || seen[c.own[0]] || body(c.own[0]) == nil || a.reportsSuccess(end.in, info, ce) {
			// (A report of the pass's success, return r.status(ctx,
			// obj, nil), is no part of the work.)
			return end
		}
		end.via = append(end.via, retHop{in: end.in, pos: end.pos})
		end.in = c.own[0]
	}
}

// reportedAt reports whether the statement of fn at pos, a return or the
// assignment of the named results a bare return hands back, hands back
// what a report of a success makes (reportsSuccess): a failure there is
// the report's.
func (a *analysis) reportedAt(fn *ssa.Function, pos token.Pos) bool {
	b := body(fn)
	if b == nil || !pos.IsValid() {
		return false
	}
	info := a.infoAt(pos)
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		var values []ast.Expr
		switch st := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			values = st.Results
			if len(values) == 0 && st.Pos() == pos {
				values = []ast.Expr{a.handedBack(fn, st)} // what the named results were assigned
			}
		case *ast.AssignStmt:
			values = st.Rhs
		}
		if n == nil || n.Pos() != pos || values == nil {
			return !found
		}
		for _, v := range values {
			if ce, ok := ast.Unparen(v).(*ast.CallExpr); ok && a.reportsSuccess(fn, info, ce) {
				found = true
			}
		}
		return !found
	})
	return found
}

// madePair is the call that made the result and the error the return ret
// of fn hands back, directly (res, obj, err := r.inner(…); …; return res,
// err) or through a helper it returns the results of (return report(obj,
// res, err)), when both come from that one call and no failure of it is
// returned between: what the return hands back is the call's, its success
// path's end the call's own. Nil otherwise.
func (a *analysis) madePair(fn *ssa.Function, ret *ast.ReturnStmt) *ast.CallExpr {
	info := a.infoAt(ret.Pos())
	at, results := ast.Node(ret), ret.Results
	if ids := namedResults(fn); len(results) == 0 && len(ids) >= 2 {
		// A bare return hands back what the named results were last
		// assigned together.
		as := a.lastAssign(info, ret, info.Defs[ids[0]])
		if as == nil || len(as.Lhs) != len(ids) || !assigns(info, as.Lhs[0], info.Defs[ids[0]]) || !assigns(info, as.Lhs[len(ids)-1], info.Defs[ids[len(ids)-1]]) {
			return nil
		}
		at, results = as, as.Rhs
	}
	var res, errE ast.Expr
	switch {
	case len(results) >= 2:
		res, errE = results[0], results[len(results)-1]
		if !resultAndError(info, res, errE) {
			return nil
		}
	case len(results) == 1:
		ce, ok := ast.Unparen(results[0]).(*ast.CallExpr)
		if !ok {
			return nil
		}
		for _, e := range ce.Args {
			t := info.TypeOf(e)
			switch {
			case t == nil || isNil(info, e):
			case typeKey(t) == typeResult && res == nil:
				res = e
			case isErrorType(t) && errE == nil:
				errE = e
			case typeKey(t) == typeResult || isErrorType(t):
				return nil // two handed: which pair is the work's is not said
			}
		}
		if res == nil || errE == nil {
			return nil
		}
	default:
		return nil
	}
	var vars [2]types.Object
	for i, e := range []ast.Expr{res, errE} {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok || info.Uses[id] == nil {
			return nil
		}
		vars[i] = info.Uses[id]
	}
	as := a.lastAssign(info, at, vars[0])
	if as == nil || as != a.lastAssign(info, at, vars[1]) || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
		return nil
	}
	ce, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || failureReturnedBetween(info, body(fn), ce, at, errE) || a.reportsSuccess(fn, info, ce) {
		return nil // (a report of the success is no work's pair)
	}
	return ce
}

// successEnd is the return a function's success path ends with: its last
// statement, as a pass of a live object runs the body (liveList), when
// that is a return, or, when it is an if testing an error against nil,
// the end of the branch where the error is nil.
func (a *analysis) successEnd(fn *ssa.Function, kind *types.Named) *ast.ReturnStmt {
	b := body(fn)
	if b == nil || len(b.List) == 0 {
		return nil
	}
	info := a.infoAt(b.Pos())
	list := a.liveList(info, fn, b.List, kind)
	for len(list) > 0 {
		switch st := list[len(list)-1].(type) {
		case *ast.ReturnStmt:
			return st
		case *ast.IfStmt:
			be, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
			if !ok || st.Else == nil || (be.Op != token.EQL && be.Op != token.NEQ) {
				return nil
			}
			x, y := be.X, be.Y
			if isNil(info, x) {
				x, y = y, x
			}
			if t := info.TypeOf(x); t == nil || !isErrorType(t) || !isNil(info, y) {
				return nil
			}
			branch := ast.Stmt(st.Body)
			if be.Op == token.NEQ {
				branch = st.Else
			}
			blk, ok := branch.(*ast.BlockStmt)
			if !ok {
				return nil
			}
			list = blk.List
		default:
			return nil
		}
	}
	return nil
}

// handedBack is the one expression whose results the return ret of fn
// hands back whole: its single result, or, for a bare return, what the
// assignment of both named results before it assigns them from (res,
// err = r.fail(…); return); nil otherwise.
func (a *analysis) handedBack(fn *ssa.Function, ret *ast.ReturnStmt) ast.Expr {
	switch {
	case ret == nil:
		return nil
	case len(ret.Results) == 1:
		return ret.Results[0]
	case len(ret.Results) > 0:
		return nil
	}
	ids := namedResults(fn)
	if len(ids) != 2 {
		return nil
	}
	info := a.infoAt(ret.Pos())
	as := a.lastAssign(info, ret, info.Defs[ids[0]])
	if as == nil || len(as.Lhs) != 2 || len(as.Rhs) != 1 || !assigns(info, as.Lhs[0], info.Defs[ids[0]]) || !assigns(info, as.Lhs[1], info.Defs[ids[1]]) {
		return nil
	}
	return as.Rhs[0]
}

// handsParam reports whether the site returns, as its error, the
// parameter arg of fn: directly, or through the helpers fn hands it to
// and returns the results of whole (return r.fail(ctx, obj, err)).
func (a *analysis) handsParam(r *retSite, fn *ssa.Function, arg int) bool {
	ch := r.chain()
	k := -1
	for i, h := range ch {
		if h.in == fn {
			k = i
		}
	}
	if k < 0 {
		return false
	}
	for ; k < len(ch); k++ {
		fb := a.flowBodyOf(ch[k].in)
		if fb == nil || fb.lit != nil {
			return false
		}
		if k == len(ch)-1 {
			e := errorOf(r.at)
			return e != nil && fb.argParam(a.unwrapError(ch[k].in, a.infoAt(e.Pos()), e)) == arg
		}
		if ch[k].pair {
			return false
		}
		var ret *ast.ReturnStmt
		for _, n := range a.path(ch[k].pos, ch[k].pos) {
			if rs, ok := n.(*ast.ReturnStmt); ok {
				ret = rs
				break
			}
		}
		ce, ok := ast.Unparen(a.handedBack(ch[k].in, ret)).(*ast.CallExpr)
		if !ok {
			return false
		}
		next := -1
		for i, e := range ce.Args {
			if fb.argParam(a.unwrapError(ch[k].in, a.infoAt(e.Pos()), e)) == arg {
				if next >= 0 {
					return false
				}
				next = i
			}
		}
		if next < 0 {
			return false
		}
		arg = next
	}
	return false
}

// errorOf is the error a site hands back: the second result of its
// return, or the second value of the assignment of the named results.
func errorOf(at ast.Node) ast.Expr {
	switch s := at.(type) {
	case *ast.ReturnStmt:
		if len(s.Results) == 2 {
			return s.Results[1]
		}
	case *ast.AssignStmt:
		if len(s.Lhs) == 2 && len(s.Rhs) == 2 {
			return s.Rhs[1]
		}
	}
	return nil
}

// successRow is the requeue-success row of a timed success return: its
// site, classed success-interval, the primary one.
func (a *analysis) successRow(pos token.Pos, note string) Row {
	s := a.site(pos)
	s.Class = ClassSuccessInterval
	s.Primary = true
	s.Note = note
	return Row{Sites: []Site{s}}
}

// endFailure is the failure return that is the success path's end itself
// (the path's last return hands back a call's error), or that end hands
// back whole; nil when there is none.
func endFailure(rets []retSite, end *retSite, isFailure func(string) bool) *retSite {
	for i := range rets {
		if r := &rets[i]; isFailure(r.class) && r.in == end.in && r.pos == end.pos {
			return r
		}
	}
	// A failure that end hands back whole from a call it returns the
	// results of (res, err := r.work(…); if err != nil { log(err) };
	// return res, err): the main work's, as it would be in the entry.
	for i := range rets {
		if r := &rets[i]; isFailure(r.class) && r.in != end.in && r.posIn(end.in) == end.pos {
			return r
		}
	}
	return nil
}

// handedWorkError is, when the entry has no success requeue and its
// success path ends by handing back the pair one call of the main work
// made (res, err := r.inner(…); …; return res, err), in the entry or in a
// function the entry hands its results to whole (return r.rest(…)), and
// the pass also fails elsewhere (a status patch after the call, the
// re-read before it), that return: there the main work's error goes back
// to the controller, as where the entry tests it and returns would be.
// For a bare return, the assignment of the named results is the site.
// Nil when every failure comes back through that return (the function
// only wraps the call: its failures are followed into it), when the
// success's wait is made in the call (the call is the function that
// returns the success requeue), or when no failure with an error comes
// back there.
func (a *analysis) handedWorkError(entry *ssa.Function, kind *types.Named, rets []retSite, isFailure func(string) bool) *retSite {
	fn, seen := entry, map[*ssa.Function]bool{}
	for !seen[fn] {
		seen[fn] = true
		ret := a.successEnd(fn, kind)
		if ret == nil {
			return nil
		}
		if pc := a.madePair(fn, ret); pc != nil {
			return a.pairReturn(fn, ret, pc, kind, rets, isFailure)
		}
		ce, ok := ast.Unparen(a.handedBack(fn, ret)).(*ast.CallExpr)
		if !ok {
			return nil
		}
		c := a.makeCall(a.infoAt(ce.Pos()), ce, fn)
		if c.known || len(c.own) != 1 || body(c.own[0]) == nil {
			return nil
		}
		fn = c.own[0]
	}
	return nil
}

// pairReturn is handedWorkError's site for the return ret of fn that
// hands back the pair the call pc made.
func (a *analysis) pairReturn(fn *ssa.Function, ret *ast.ReturnStmt, pc *ast.CallExpr, kind *types.Named, rets []retSite, isFailure func(string) bool) *retSite {
	through := func(r *retSite) bool {
		return r.in == fn && r.pos == ret.Pos() || slices.ContainsFunc(r.via, func(h retHop) bool { return h.in == fn && h.pos == ret.Pos() })
	}
	own, handed := false, false
	for i := range rets {
		r := &rets[i]
		if !isFailure(r.class) || r.deferred {
			continue
		}
		own = own || !through(r)
		handed = handed || r.class == ClassErrorBackoff && r.in != fn && through(r)
	}
	if !own || !handed {
		return nil
	}
	if w := a.waitPrimary(rets, kind); w != nil && through(w) {
		return nil
	}
	var at ast.Node = ret
	if ids := namedResults(fn); len(ret.Results) == 0 && len(ids) > 0 {
		info := a.infoAt(ret.Pos())
		if as := a.lastAssign(info, ret, info.Defs[ids[0]]); as != nil {
			at = as
		}
	}
	return &retSite{pos: at.Pos(), class: ClassErrorBackoff, in: fn, ret: ret, at: at,
		note: "hands back the error " + a.exprText(callee(pc)) + " returns: the main work's failures come back here"}
}

// entrySplitEnd is the failing half of the entry's own final return, when
// that return hands back the pass's error with its result (a split site)
// and the success path ends there, not in a helper; nil otherwise.
func (a *analysis) entrySplitEnd(entry *ssa.Function, kind *types.Named, rets []retSite) *retSite {
	end := a.successPathEnd(entry, kind)
	if end == nil || len(end.via) > 0 {
		return nil
	}
	for i := range rets {
		if r := &rets[i]; r.split && r.in == end.in && r.pos == end.pos {
			if a.savedOnlyError(r, kind) {
				return nil // the work's failures returned before it
			}
			return r
		}
	}
	return nil
}
