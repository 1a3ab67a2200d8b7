package locate

import (
	"fmt"
	"go/ast"

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
	// handed is the call whose results a list of statements ends handing
	// back whole: return r.rest(…), or res, err = r.rest(…); return with
	// named results.
	handed := func(list []ast.Stmt) *ast.CallExpr {
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
		if c := a.makeCall(info, ce, entry); c.known || len(c.own) != 1 {
			return nil
		}
		return ce
	}
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
