package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
	"golang.org/x/tools/go/ssa"
)

// waitPrimary is, with no steady-state requeue, the wait with a nil error
// that is the requeue a success makes: after work that succeeded (a child
// just created) first, else on something else (a child still
// terminating); a wait on the deletion branch (a finalizer's cleanup still
// running) last, as it is not the success path's. Nil when there is none.
func (a *analysis) waitPrimary(rets []retSite, kind *types.Named) *retSite {
	var best *retSite
	bestRank := 0
	for i := range rets {
		r := &rets[i]
		if r.class != ClassDependencyWait || r.deferred {
			continue
		}
		if rank := a.waitRank(r, kind); best == nil || rank < bestRank {
			best, bestRank = r, rank
		}
	}
	return best
}

// waitRank orders the waits waitPrimary chooses from, lowest first: one on
// the deletion branch ranks after one that is not, and one after no work
// after one after work.
func (a *analysis) waitRank(r *retSite, kind *types.Named) int {
	rank := 0
	if a.onDeletion(r, kind) {
		rank += 2
	}
	if !r.afterWork {
		rank++
	}
	return rank
}

// tiedWaits are the waits of rets, other than w, that rank as w does
// (waitRank) and return elsewhere: the waits a pass may stop at instead
// of w, one after another on the success path or in the branches of a
// test. The order of the source does not choose among them (a pass stops
// at the first whose test holds, and each may be the steady state's
// until what it waits for is done); the first in other branches of an if
// or cases of a switch than w comes first.
func (a *analysis) tiedWaits(rets []retSite, w *retSite, kind *types.Named) []*retSite {
	var out []*retSite
	seen := map[token.Pos]bool{w.pos: true}
	for i := range rets {
		r := &rets[i]
		if seen[r.pos] || r.class != ClassDependencyWait || r.deferred || a.waitRank(r, kind) != a.waitRank(w, kind) {
			continue
		}
		seen[r.pos] = true
		if rel, _ := a.stmtRelation(r.pos, w.pos); r.in == w.in && (rel == relBranches || rel == relCases) {
			out = slices.Insert(out, 0, r)
			continue
		}
		out = append(out, r)
	}
	return out
}

// tracedAlike reports whether the durations of waits trace, each, to the
// same Spec fields of the object (or each to none), with no trail left
// not settled: what the success's requeue waits for is then told, though
// which wait it is is not.
func (a *analysis) tracedAlike(kind *types.Named, reach *callgraph.Reach, waits []*retSite) bool {
	var first []cite.Site
	for i, w := range waits {
		var fields []cite.Site
		for _, st := range a.intervalTrace(kind, reach, w.afterFn(), w.at, w.after) {
			if strings.Contains(st.Note, "not settled") {
				return false
			}
			if st.Step == StepSpecField {
				fields = append(fields, st.Site)
			}
		}
		if i == 0 {
			first = fields
		} else if !slices.Equal(fields, first) {
			return false
		}
	}
	return true
}

// stateAlternative is, for the success return that requeues after an
// interval, a return of its function with a nil error that does not
// requeue and stands in the other branch of an if, or another case of a
// switch, whose test reads the primary object's status (switch
// obj.Status.Phase { case Completed: return ctrl.Result{}, nil; case
// Processing: return ctrl.Result{RequeueAfter: d}, nil }), with that if or
// switch. Which of the two is the steady state, an interval or a wait
// while a state lasts, the object's state decides, not the code. Nil when
// there is none.
func (a *analysis) stateAlternative(rets []retSite, success *retSite, kind *types.Named) (*retSite, ast.Node) {
	for i := range rets {
		r := &rets[i]
		if r.in != success.in || r.class != ClassNone && !a.idleOnNil(r) || r.deferred || r.opaque != nil || r.pos == success.pos {
			continue
		}
		rel, at := a.stmtRelation(success.pos, r.pos)
		if rel == relBefore {
			rel, at = a.impliedElse(success.pos, r.pos)
		}
		if rel != relBranches && rel != relCases {
			continue
		}
		if sw, ok := at.(*ast.SwitchStmt); ok && a.failureStateCase(sw, r.pos) {
			continue // a state the object is put in only on a failure: no steady state
		}
		info := a.infoAt(at.Pos())
		var tests []ast.Expr
		switch s := at.(type) {
		case *ast.IfStmt:
			tests = []ast.Expr{s.Cond}
		case *ast.SwitchStmt:
			tests = []ast.Expr{s.Tag}
			if s.Tag == nil {
				for _, cc := range s.Body.List {
					tests = append(tests, cc.(*ast.CaseClause).List...)
				}
			}
		}
		for _, e := range tests {
			if info != nil && e != nil && a.readsStatus(info, e, kind) {
				return r, at
			}
		}
	}
	return nil, nil
}

// idleOnNil reports whether r is a failure return whose error may be nil
// and whose result asks for nothing (return ctrl.Result{}, err with err
// set by a call, under no test of it): where the error is nil, a return
// that does not requeue.
func (a *analysis) idleOnNil(r *retSite) bool {
	ret, ok := r.ret.(*ast.ReturnStmt)
	if r.class != ClassErrorBackoff || r.after != nil || !ok {
		return false
	}
	// The values handed back: the return's, or those of the named
	// results' assignment a bare return hands back.
	vals := ret.Results
	if as, ok := r.at.(*ast.AssignStmt); ok && len(vals) == 0 && len(as.Lhs) == len(as.Rhs) {
		vals = as.Rhs
	}
	if len(vals) != 2 || r.at.Pos() != r.pos {
		return false
	}
	lit, ok := ast.Unparen(vals[0]).(*ast.CompositeLit)
	if !ok || len(lit.Elts) > 0 {
		return false
	}
	_, isVar := ast.Unparen(vals[1]).(*ast.Ident)
	return isVar && errorAtReturn(r.in, ret) == "" && a.mayBeNilError(r.in, vals[1])
}

// impliedElse relates the success return that requeues, p, and a return
// h of its function that does not, when p stands in the body of an if
// without an else that ends in its return and h after that if: the code
// after it is the if's other branch (if !obj.Status.Done { return wait };
// …; return done), as if written in an else. The converse (if
// !obj.Status.Released { return done }; return wait) keeps the source's
// order: the early return is the special case, the later one the steady
// state. relBranches and the if, or relNone.
func (a *analysis) impliedElse(p, h token.Pos) (int, ast.Node) {
	rel, at := a.stmtRelation(p, h)
	ifs, ok := at.(*ast.IfStmt)
	if rel != relBefore || !ok || ifs.Else != nil || p < ifs.Body.Pos() || p >= ifs.Body.End() || len(ifs.Body.List) == 0 {
		return relNone, nil
	}
	if _, returns := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); returns {
		return relBranches, ifs
	}
	return relNone, nil
}

// dispatchedResult is the call that makes the result a wait hands back,
// when that result is a variable the call assigns and the call may run
// several functions of the tree (res, _ := opt.GetResult(), over options
// its callers hand in); nil otherwise.
func (a *analysis) dispatchedResult(r *retSite) *call {
	ret, ok := r.ret.(*ast.ReturnStmt)
	if !ok {
		return nil
	}
	// The result handed back: the return's first, or, for a bare return,
	// the value last assigned to the named result (r.at).
	var res ast.Expr
	if len(ret.Results) > 0 {
		res = ret.Results[0]
	} else if as, ok := r.at.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
		res = as.Rhs[0]
	}
	info := a.infoAt(ret.Pos())
	id, ok := ast.Unparen(res).(*ast.Ident)
	if info == nil || !ok {
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	// Its one assignment (res, _ := opt.GetResult()), or the one that
	// reaches the return.
	var value ast.Expr
	if as, _ := a.reachingAssignment(info, ret, v); as != nil && len(as.Rhs) == 1 {
		value = as.Rhs[0]
	} else if all := assignmentsTo(info, a.declBodyOf(ret), v); len(all) == 1 {
		value = all[0]
	}
	ce, ok := ast.Unparen(value).(*ast.CallExpr)
	if !ok {
		return nil
	}
	c := a.makeCall(info, ce, r.in)
	if len(c.own) < 2 {
		return nil
	}
	return &c
}

// dispatchedWait is why the requeue on success is not settled when a wait
// of rets is handed back as the result a call made that may run one of
// several functions, there or through a return that hands it on (a
// status helper handing back what its options ask for), at the entry's
// success end (successEnd): whether the steady pass requeues there is not
// followed. "" when no wait is.
func (a *analysis) dispatchedWait(entry *ssa.Function, kind *types.Named, rets []retSite) string {
	ends := a.endDelegates(entry, kind)
	for i := range rets {
		r := &rets[i]
		if r.class != ClassDependencyWait || r.deferred {
			continue
		}
		// Only at the end of the success path: an early return of such a
		// result (in a loop over components, each run in turn) is one wait
		// among others, not what the steady pass ends with.
		if !ends[r.in] && !slices.ContainsFunc(r.via, func(h retHop) bool { return ends[h.in] }) {
			continue
		}
		c, hop := a.dispatchedResult(r), a.site(r.pos)
		if c == nil {
			c, hop = a.dispatchedVia(r)
		}
		if c == nil {
			continue
		}
		s, at := a.site(r.pos), a.site(c.expr.Lparen)
		where := ""
		if s != hop {
			where = fmt.Sprintf(", one of which waits at %s:%d", s.File, s.Line)
		}
		return fmt.Sprintf("not settled: the return at %s:%d hands back the result %s made at %s:%d, a call that may run %d functions of the tree%s: which of them the pass runs, and so whether its success requeues, is not followed", hop.File, hop.Line, a.exprText(c.expr), at.File, at.Line, len(c.own), where)
	}
	return ""
}

// endDelegates are the functions whose results the entry's success end
// (successEnd) hands back whole, and theirs in turn (return
// r.updateStatus(…, opts)): what the steady pass ends with.
func (a *analysis) endDelegates(entry *ssa.Function, kind *types.Named) map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	for fns := []*ssa.Function{entry}; len(fns) > 0; {
		fn := fns[0]
		fns = fns[1:]
		ce, ok := ast.Unparen(a.handedBack(fn, a.successEnd(fn, kind))).(*ast.CallExpr)
		if !ok {
			continue
		}
		for _, d := range a.makeCall(a.infoAt(ce.Pos()), ce, fn).own {
			if !out[d] {
				out[d] = true
				fns = append(fns, d)
			}
		}
	}
	return out
}

// dispatchedSuccess is why the requeue on success is not settled when the
// success return hands back the result of a call that may run several
// functions of the tree (dispatchedResult), or its interval is made in one
// of them and handed on by a return of that call's result
// (dispatchedVia); "" otherwise.
func (a *analysis) dispatchedSuccess(success *retSite) string {
	if c := a.dispatchedResult(success); c != nil {
		s, at := a.site(success.pos), a.site(c.expr.Lparen)
		return fmt.Sprintf("not settled: the return at %s:%d hands back the result %s made at %s:%d, a call that may run %d functions of the tree: which of them makes it requeue, and for which of its callers' values, is not followed", s.File, s.Line, a.exprText(c.expr), at.File, at.Line, len(c.own))
	}
	c, hop := a.dispatchedVia(success)
	if c == nil {
		return ""
	}
	s, at := a.site(success.pos), a.site(c.expr.Lparen)
	return fmt.Sprintf("not settled: the return at %s:%d hands back the result %s made at %s:%d, a call that may run %d functions of the tree, one of which requeues at %s:%d: which of them the pass runs, and for which of its callers' values, is not followed", hop.File, hop.Line, a.exprText(c.expr), at.File, at.Line, len(c.own), s.File, s.Line)
}

// dispatchedVia is, for a site whose result a return hands back towards
// the entry (r.via), the first such return that hands back a result a
// call may make by running several functions of the tree
// (dispatchedResult: return res, nil after res, _ := opt.GetResult()),
// with that return's site: the site is one of those functions' returns,
// and which of them the pass runs is not followed.
func (a *analysis) dispatchedVia(r *retSite) (*call, Site) {
	for _, hop := range r.via {
		b := body(hop.in)
		if b == nil {
			continue
		}
		var ret *ast.ReturnStmt
		returnsOf(b, func(s *ast.ReturnStmt) {
			if s.Pos() == hop.pos {
				ret = s
			}
		})
		if ret == nil {
			continue
		}
		if c := a.dispatchedResult(&retSite{ret: ret, in: hop.in}); c != nil {
			return c, a.site(hop.pos)
		}
	}
	return nil, Site{}
}

// failureStateCase reports whether the case of a switch on a field that
// holds pos selects only states the tree stores into that field on
// failure alone: each value of the case is a constant that every
// assignment of the tree to the field stores under a test of an error
// (obj.Status.State = FailedValidation, where parsing the Spec failed).
// An object whose Spec is valid and whose work succeeds does not rest in
// such a state.
func (a *analysis) failureStateCase(sw *ast.SwitchStmt, pos token.Pos) bool {
	info := a.infoAt(sw.Pos())
	if info == nil || sw.Tag == nil {
		return false
	}
	field := selectedField(info, sw.Tag)
	if field == nil {
		return false
	}
	var values []constant.Value
	for _, st := range sw.Body.List {
		cc := st.(*ast.CaseClause)
		if pos < cc.Pos() || pos >= cc.End() {
			continue
		}
		if len(cc.List) == 0 {
			return false // the default: any other state
		}
		for _, e := range cc.List {
			v := info.Types[e].Value
			if v == nil {
				return false
			}
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		return false
	}
	stores, onFailure := 0, 0
	for _, fi := range a.files {
		ast.Inspect(fi.file, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || selectedField(fi.info, as.Lhs[0]) != field {
				return true
			}
			v := fi.info.Types[as.Rhs[0]].Value
			if v == nil || !slices.ContainsFunc(values, func(w constant.Value) bool { return constant.Compare(v, token.EQL, w) }) {
				return true
			}
			stores++
			if a.underErrorTest(fi.info, as) {
				onFailure++
			}
			return true
		})
	}
	return stores > 0 && stores == onFailure
}

// underErrorTest reports whether a statement stands in the body of an if,
// in its function, whose condition tests an error.
func (a *analysis) underErrorTest(info *types.Info, st ast.Stmt) bool {
	path := a.path(st.Pos(), st.End())
	for i := 1; i < len(path); i++ {
		switch p := path[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if path[i-1] == ast.Node(p.Body) && condGuard(info, p.Cond) == guardError {
				return true
			}
		}
	}
	return false
}

// tiedWaitsRow is the requeue on success left not settled between the
// wait w and the waits tied with it (tiedWaits), each cited.
func (a *analysis) tiedWaitsRow(w *retSite, tied []*retSite) Row {
	s, o := a.site(w.pos), a.site(tied[0].pos)
	more := ""
	if len(tied) > 1 {
		more = fmt.Sprintf(" (and %d more)", len(tied)-1)
	}
	why := fmt.Sprintf("not settled: the waits at %s:%d and %s:%d%s, each with a nil error, stand in branches of one if or cases of one switch: which one a pass makes is chosen there, and neither is the success's requeue more than the other; the final success return does not requeue", s.File, s.Line, o.File, o.Line, more)
	if rel, _ := a.stmtRelation(tied[0].pos, w.pos); tied[0].in != w.in || rel != relBranches && rel != relCases {
		why = fmt.Sprintf("not settled: the waits at %s:%d and %s:%d%s, each with a nil error on the success path, rank alike: a pass stops at the first whose test holds, and the code does not say which of them is the success's requeue (each holds the object until what it waits for is done); the final success return does not requeue", s.File, s.Line, o.File, o.Line, more)
	}
	row := none(why)
	for _, r := range append([]*retSite{w}, tied...) {
		site := a.site(r.pos)
		site.Class = ClassDependencyWait
		site.Note = r.note
		row.Sites = append(row.Sites, site)
	}
	return row
}

// specInterval reports whether the interval trace of a timed return
// reaches a Spec field of the primary object.
func (a *analysis) specInterval(kind *types.Named, reach *callgraph.Reach, r *retSite) bool {
	for _, st := range a.intervalTrace(kind, reach, r.afterFn(), r.at, r.after) {
		if st.Step == StepSpecField {
			return true
		}
	}
	return false
}

// sharedWaits makes a dependency wait of a failure path that requeues
// after a setting of the controller's own (a field of the reconciler)
// that it also waits on dependencies with; an interval of the object
// stays a retry.
func sharedWaits(rets []retSite, entry *ssa.Function) {
	waits := map[types.Object]bool{}
	for _, r := range rets {
		if v, ok := r.interval.(*types.Var); ok && r.class == ClassDependencyWait && v.IsField() && v.Pkg() == entry.Pkg.Pkg {
			waits[r.interval] = true
		}
	}
	for i := range rets {
		if rets[i].class == ClassRetryAfterFailure && waits[rets[i].interval] {
			rets[i].class = ClassDependencyWait
		}
	}
}

// errorPastWaits is the requeue on error row errRow when the success's
// return is one of several the requeue on success row does not choose
// between (waits tied with each other; a timed return and one that does
// not requeue, as the object's state decides): its primary, the failure
// return that handles the main work's error, comes last before the success
// return (or is that return's failing half), so it stands only when it is
// so for each of them; where they differ, which one handles the main
// work's error follows from which is the success's, and the row is not
// settled.
func (a *analysis) errorPastWaits(errRow Row, rets []retSite, cands []*retSite, isFailure func(string) bool) Row {
	p, ok := errRow.Primary()
	if !ok {
		return errRow
	}
	for _, c := range cands {
		q := c
		if !isFailure(c.class) {
			q = a.lastFailureBefore(rets, c, isFailure)
		}
		if q != nil {
			if s := a.site(q.pos); s.File == p.File && s.Line == p.Line {
				continue
			}
		}
		s := a.site(c.pos)
		out := Row{Sites: slices.Clone(errRow.Sites)}
		for i := range out.Sites {
			out.Sites[i].Primary = false
		}
		out.None = fmt.Sprintf("not settled: the main work's failure return is the one that comes last before the success return, and that is one of %d returns the requeue on success row does not choose between; for the one at %s:%d it is not the one at %s:%d", len(cands), s.File, s.Line, p.File, p.Line)
		return out
	}
	return errRow
}
