package locate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// An entry that serves two kinds of request: the object's own, and one of
// another kind (a resync of every object) whose helper it ends with.

// dispatchedAway leaves the requeue on error not settled when the entry
// hands back, under a test, the whole results of one of the tree's
// functions (if !isResync(req) { return r.reconcileOne(ctx, req) }) and
// ends handing back another's (return r.resyncAll(ctx)), and the object is
// re-read on the first's way only: the failure chosen along the entry's
// final return is another kind of request's, and which one the object's
// main work fails at is not read there. read is the function that makes
// the re-read.
func (a *analysis) dispatchedAway(rq *requeues, entry *ssa.Function, reach *callgraph.Reach, read *ssa.Function) {
	if _, ok := rq.onError.Primary(); !ok || read == nil || read == entry {
		return
	}
	b := body(entry)
	if b == nil || len(b.List) == 0 {
		return
	}
	info := a.infoAt(b.Pos())
	handed := func(list []ast.Stmt) *ast.CallExpr { return a.handedCall(info, entry, list) }
	final := handed(b.List)
	if final == nil {
		return
	}
	path := reach.Path(read)
	if len(path) == 0 || path[0].Caller.Func != entry || path[0].Site == nil {
		return
	}
	readVia := path[0].Site.Pos()
	if final.Lparen == readVia || final.Pos() <= readVia && readVia < final.End() {
		return
	}
	for _, st := range b.List[:len(b.List)-1] {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Else != nil || len(ifs.Body.List) > 2 || condGuard(info, ifs.Cond) == guardError {
			continue
		}
		ce := handed(ifs.Body.List)
		if ce == nil || !(ce.Pos() <= readVia && readVia < ce.End()) {
			continue
		}
		for i := range rq.onError.Sites {
			rq.onError.Sites[i].Primary = false
		}
		rq.onError.None = fmt.Sprintf("not settled: the entry hands back the results of %s at %s under a test, where the object is re-read, and ends handing back those of %s at %s: the failure the main work of the object comes back with is along the first, which is not read as the success path", a.exprText(ce.Fun), fileLine(a.site(ce.Pos())), a.exprText(final.Fun), fileLine(a.site(final.Pos())))
		return
	}
}

// handedCall is the call of one of the tree's functions whose results a
// list of statements of fn ends handing back whole: return r.rest(…), or
// res, err = r.rest(…); return with named results; nil otherwise.
func (a *analysis) handedCall(info *types.Info, fn *ssa.Function, list []ast.Stmt) *ast.CallExpr {
	if len(list) == 0 {
		return nil
	}
	ret, ok := list[len(list)-1].(*ast.ReturnStmt)
	if !ok {
		return nil
	}
	var e ast.Expr
	switch {
	case len(ret.Results) == 1:
		e = ret.Results[0]
	case len(ret.Results) == 0 && len(list) >= 2:
		if as, ok := list[len(list)-2].(*ast.AssignStmt); ok && len(as.Rhs) == 1 && len(as.Lhs) >= 2 {
			e = as.Rhs[0]
		}
	}
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if c := a.makeCall(info, ce, fn); c.known || len(c.own) != 1 {
		return nil
	}
	return ce
}

// stateDispatched says, when the main work's failure chosen is reached
// through one of several branches of the entry that each hand back the
// results of another function of the tree's under a test of the object's
// state (if spec.state == Active && status.phase == Initialized { return
// r.reconcileRunning(…) }), and the entry ends in a return of no work
// after them, why the failure the main work comes back with is not
// settled: which state's function is the pass's main work is not told by
// the source. The deletion's branch is none of them, nor a branch with no
// failure handed back through it. "" otherwise.
func (a *analysis) stateDispatched(entry *ssa.Function, kind *types.Named, primary *retSite, rets []retSite, isFailure func(string) bool) string {
	if primary == nil {
		return ""
	}
	// (The entry, or a function it hands the pass on to: the rest of the
	// pass delegated, if err := r.Get(…); err == nil { return r.run(…) }.)
	for _, h := range primary.chain() {
		if why := a.dispatchedIn(h.in, kind, primary, rets, isFailure); why != "" {
			return why
		}
	}
	return ""
}

// dispatchedIn is stateDispatched for one function of the failure's way
// back.
func (a *analysis) dispatchedIn(entry *ssa.Function, kind *types.Named, primary *retSite, rets []retSite, isFailure func(string) bool) string {
	b := body(entry)
	if b == nil || len(b.List) == 0 {
		return ""
	}
	info := a.infoAt(b.Pos())
	if ret, ok := b.List[len(b.List)-1].(*ast.ReturnStmt); !ok || a.handedCall(info, entry, b.List) != nil || slices.ContainsFunc(ret.Results, func(e ast.Expr) bool { _, call := ast.Unparen(e).(*ast.CallExpr); return call }) {
		return ""
	}
	at := primary.posIn(entry)
	var calls []string
	seen := map[string]bool{}
	through := false
	for _, st := range b.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Else != nil || condGuard(info, ifs.Cond) == guardError || a.deletionTest(info, ifs.Cond, kind) != 0 {
			continue
		}
		ce := a.handedCall(info, entry, ifs.Body.List)
		if ce == nil || !slices.ContainsFunc(rets, func(r retSite) bool {
			p := r.posIn(entry)
			return isFailure(r.class) && ifs.Pos() <= p && p < ifs.End()
		}) {
			continue // (a branch that cannot fail is no work the failure is of)
		}
		through = through || ifs.Pos() <= at && at < ifs.End()
		if name := a.exprText(ce.Fun); !seen[name] {
			seen[name] = true
			calls = append(calls, fmt.Sprintf("%s at %s", name, fileLine(a.site(ce.Pos()))))
		}
	}
	if !through || len(calls) < 2 {
		return ""
	}
	return fmt.Sprintf("not settled: %s hands the pass, by the object's state, to one of %s, and ends in a return of no work; which one is the main work, whose failure comes back, the source does not tell (the failure chosen was at %s)", a.funcName(entry), strings.Join(calls, ", "), fileLine(a.site(primary.pos)))
}
