package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// rateLimitedCall is a call of AddRateLimited and the types of its file.
type rateLimitedCall struct {
	info *types.Info
	expr *ast.CallExpr
}

// queueCall is a call of a workqueue's AddRateLimited or Forget (forget).
type queueCall struct {
	in     *ssa.Function
	pos    token.Pos
	forget bool
}

// mainWorkFailure picks, among the AddRateLimited calls of a work that
// requeues the key itself (a handler the worker hands the object to), the
// one of its main work's failure, as the last failure return before the
// success return is: in the first function holding a Forget after one,
// the last before its last Forget (its success path's end). A call in a
// closure of that function stands where the closure is made, one in a
// helper it calls where it calls it (a branch moved out of it). It returns
// the index of that call among the AddRateLimited calls, or -1.
func (a *analysis) mainWorkFailure(calls []queueCall) int {
	seen := map[*ssa.Function]bool{}
	for _, f := range calls {
		if !f.forget || seen[f.in] {
			continue
		}
		top := f.in
		seen[top] = true
		var lastForget token.Pos
		for _, c := range calls {
			if c.forget && c.in == top {
				lastForget = max(lastForget, c.pos)
			}
		}
		best, bestAt := -1, token.NoPos
		i := -1
		for _, c := range calls {
			if c.forget {
				continue
			}
			i++
			if at, ok := a.anchorIn(top, c.in, c.pos); ok && at < lastForget && at > bestAt {
				best, bestAt = i, at
			}
		}
		if best >= 0 {
			return best
		}
	}
	return -1
}

// anchorIn is where a call at pos in fn stands in top: there, when fn is
// top; where the closure of top holding it is made; where top calls fn
// (its last such call). ok is false when fn is none of these.
func (a *analysis) anchorIn(top, fn *ssa.Function, pos token.Pos) (token.Pos, bool) {
	if fn == top {
		return pos, true
	}
	for f := fn; f.Parent() != nil; f = f.Parent() {
		if f.Parent() == top {
			return posOf(f), true
		}
	}
	var at token.Pos
	for _, e := range a.prog.CallsInto(fn) {
		if e.Caller.Func == top && e.Site != nil && e.Site.Pos() > at {
			at = e.Site.Pos()
		}
	}
	return at, at.IsValid()
}

// generalFailureAdd is the index in rateLimited (whose calls at holds, in
// order) of the AddRateLimited every other failure takes, when the first
// stands under a test of what the sync's error is (if errors.Is(err,
// errNotSynced) { AddRateLimited; return }) and one after it stands only
// under the test that an error is there, or under no test of the error at
// all (past if err == nil { return }): the special case's retry comes
// first in the source, the general one's after it. Where that one is made
// in a closure or a helper, it stands where the first's function runs
// them. 0 when the first is no special case; -1 when it is one, and
// another call is not ordered after it (a helper called from elsewhere).
func (a *analysis) generalFailureAdd(rateLimited []Site, at []rateLimitedCall) int {
	if len(rateLimited) < 2 || len(at) != len(rateLimited) || rateLimited[0].Class != ClassErrorBackoff {
		return 0
	}
	first := at[0]
	if a.errorIfAround(first.info, first.expr) == nil || a.underErrorPresent(first.info, first.expr) {
		return 0
	}
	general := func(info *types.Info, n ast.Node) bool {
		return a.errorIfAround(info, n) == nil || a.underErrorPresent(info, n)
	}
	decl := a.enclosingDecl(first.expr.Pos())
	unordered := false
	for i := 1; i < len(at); i++ {
		c := at[i]
		if rateLimited[i].Class != ClassErrorBackoff || !general(c.info, c.expr) {
			continue
		}
		anchor := ast.Node(c.expr)
		if a.enclosingDecl(c.expr.Pos()) != decl {
			anchor = a.callOfIn(c.expr.Pos(), decl)
		}
		if anchor == nil || anchor.Pos() < first.expr.Pos() {
			unordered = true
			continue
		}
		if rel, _ := a.stmtRelation(first.expr.Pos(), anchor.Pos()); rel == relBranches || rel == relCases {
			continue
		}
		if general(first.info, anchor) {
			return i
		}
	}
	if unordered {
		return -1
	}
	return 0
}

// callOfIn is the call in decl of the function that holds pos (a helper
// the worker calls), nil when decl makes none or more than one.
func (a *analysis) callOfIn(pos token.Pos, decl *ast.FuncDecl) ast.Node {
	fd := a.enclosingDecl(pos)
	if fd == nil || decl == nil {
		return nil
	}
	fn := a.bySyntax[fd]
	if fn == nil {
		return nil
	}
	var found ast.Node
	for _, e := range a.prog.CallsInto(fn) {
		if e.Site == nil || e.Caller.Func.Syntax() == nil || a.enclosingDecl(e.Site.Pos()) != decl {
			continue
		}
		if found != nil {
			return nil
		}
		ce := a.callExprAt(e.Caller.Func, e.Site)
		if ce == nil {
			return nil
		}
		found = ce
	}
	return found
}

// alternativeAdds says, when the work's AddRateLimited chosen as the
// failure's (the first of rateLimited) has another failure's in its
// function that stands in the other branch of an if or another case of a switch (if
// threshold == 0 { AddRateLimited } else if retries < threshold {
// AddRateLimited }), that which one a failure takes is not settled: what
// the test reads decides, and neither comes after the other. "" otherwise.
func (a *analysis) alternativeAdds(rateLimited []Site, at []rateLimitedCall) string {
	if len(rateLimited) == 0 {
		return ""
	}
	first := rateLimited[0]
	var p token.Pos
	for _, c := range at {
		if s := a.site(c.expr.Lparen); s.File == first.File && s.Line == first.Line {
			p = c.expr.Pos()
		}
	}
	failed := map[int]bool{}
	for _, s := range rateLimited {
		if s.File == first.File && s.Class == ClassErrorBackoff {
			failed[s.Line] = true
		}
	}
	for _, c := range at {
		rel, _ := a.stmtRelation(p, c.expr.Pos())
		s := a.site(c.expr.Lparen)
		if rel != relBranches && rel != relCases || s.File != first.File || !failed[s.Line] {
			continue // (the sync's own ask for the key back is not a failure's)
		}
		return fmt.Sprintf("not settled: the worker's AddRateLimited at %s:%d and %s:%d stand in branches of one if (or cases of one switch): which one a failed sync takes is decided by what the test reads, and neither comes after the other", first.File, first.Line, s.File, s.Line)
	}
	return ""
}

// savedOnlyError reports whether the error a return hands back is made,
// where it stands, only by a call that writes the status of the primary
// object and nothing else, of a kind the tree declares, assigned before
// (err = r.patchStatus(ctx, obj, patch); return ctrl.Result{}, err) or
// handed back where it stands (return ctrl.Result{}, r.Status().Update(…)),
// or by a call that reports a success (reportsSuccess): the report's
// failure, after the work succeeded, not the work's.
func (a *analysis) savedOnlyError(r *retSite, kind *types.Named) bool {
	return a.errorMadeOnlyBy(r, func(info *types.Info, ce *ast.CallExpr) bool {
		return a.statusOnlyCall(r.in, info, ce, kind)
	})
}

// valueAtReturn is the value the variable id names holds where the return
// ret stands: its reaching assignment's, or, defined and never assigned
// (err := r.patchStatus(…)), its only one; nil when not settled.
func (a *analysis) valueAtReturn(info *types.Info, ret *ast.ReturnStmt, id *ast.Ident) ast.Expr {
	v, _ := info.Uses[id].(*types.Var)
	switch as, settled := a.reachingAssignment(info, ret, v); {
	case as != nil && (settled || as.Tok == token.DEFINE) && len(as.Rhs) == 1:
		return as.Rhs[0]
	case as == nil && settled && v != nil:
		if all := assignmentsTo(info, a.declBodyOf(ret), v); len(all) == 1 {
			return all[0]
		}
	}
	return nil
}

// filteredError is the error a call of a library function takes and
// hands on or drops (client.IgnoreNotFound(err): one parameter, an error,
// and one result, an error), or nil when e is no such call.
func (a *analysis) filteredError(fn *ssa.Function, info *types.Info, e ast.Expr) ast.Expr {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(ce.Args) != 1 {
		return nil
	}
	c := a.makeCall(info, ce, fn)
	if len(c.own) > 0 || c.fn == nil {
		return nil
	}
	sig, ok := c.fn.Type().(*types.Signature)
	if !ok || sig.Recv() != nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !isErrorType(sig.Params().At(0).Type()) || !isErrorType(sig.Results().At(0).Type()) {
		return nil
	}
	return ce.Args[0]
}

// errorMadeOnlyBy reports whether the error a return hands back (its last
// result, or for a bare return the value last assigned to the named
// error, unwrapped) is made only by calls made accepts: handed back where
// it stands, assigned where it reaches the return, or merged from the
// calls that set it on each path.
func (a *analysis) errorMadeOnlyBy(r *retSite, made func(*types.Info, *ast.CallExpr) bool) bool {
	return a.errorMade(r, made, true)
}

// errorMadeBy reports whether the error a return hands back may be made
// by a call made accepts: as errorMadeOnlyBy, one of the calls merged
// from the paths sufficing.
func (a *analysis) errorMadeBy(r *retSite, made func(*types.Info, *ast.CallExpr) bool) bool {
	return a.errorMade(r, made, false)
}

// errorMade is errorMadeOnlyBy when every is set, errorMadeBy otherwise.
func (a *analysis) errorMade(r *retSite, made func(*types.Info, *ast.CallExpr) bool, every bool) bool {
	ret, ok := r.ret.(*ast.ReturnStmt)
	if !ok {
		return false
	}
	var errExpr ast.Expr
	if n := len(ret.Results); n > 0 {
		errExpr = ret.Results[n-1]
	} else if as, ok := r.at.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
		errExpr = as.Rhs[len(as.Rhs)-1]
	}
	info := a.infoAt(ret.Pos())
	if info == nil {
		return false
	}
	if errExpr != nil {
		// return …, wrap(err): err's; and through a library's filter of
		// one error (client.IgnoreNotFound(err)), the filtered one's.
		errExpr = a.unwrapError(r.in, info, errExpr)
		if arg := a.filteredError(r.in, info, errExpr); arg != nil {
			errExpr = a.unwrapError(r.in, info, arg)
		}
	}
	if ce, ok := ast.Unparen(errExpr).(*ast.CallExpr); ok {
		return made(info, ce)
	}
	id, ok := ast.Unparen(errExpr).(*ast.Ident)
	if !ok {
		return false
	}
	ce, ok := ast.Unparen(a.valueAtReturn(info, ret, id)).(*ast.CallExpr)
	if !ok {
		// Merged from several paths (err = r.Status().Patch(…) under a
		// test, nil on the path that skips it): each call that may
		// have set it.
		calls := a.errorSources(r.in, ret)
		for _, ce := range calls {
			if ok := made(info, ce); ok != every {
				return ok
			}
		}
		return every && len(calls) > 0
	}
	return made(info, ce)
}

// statusOnlyCall reports whether the error the call ce of fn hands back is
// a report's failure: a call that reports a success (reportsSuccess), or
// one that writes the status of the primary object and nothing else, of
// a kind the tree declares.
func (a *analysis) statusOnlyCall(fn *ssa.Function, info *types.Info, ce *ast.CallExpr, kind *types.Named) bool {
	return a.reportsSuccess(fn, info, ce) || a.statusWriteOnly(fn, info, ce, kind)
}

// statusWriteOnly reports whether the call ce of fn writes the status of
// the primary object and nothing else, of a kind the tree declares.
func (a *analysis) statusWriteOnly(fn *ssa.Function, info *types.Info, ce *ast.CallExpr, kind *types.Named) bool {
	if !a.declares(kind) {
		return false // a built-in kind's status is the work itself (a Service's load balancer)
	}
	c := a.makeCall(info, ce, fn)
	if w, writes := a.writeOf(info, c); writes {
		return w.status && passesKind(info, c, kind)
	}
	if !a.savesOnlyIn(c, kind, nil, 0) {
		return false // it does other work too (a node's volume expanded, then its status)
	}
	sub := a.prog.Reachable(c.own...)
	writes := a.writeCalls(sub)
	if len(writes) == 0 || len(sub.Unanalysed) > 0 {
		return false
	}
	for _, w := range writes {
		if !w.status || !passesKind(w.info, w.call, kind) {
			return false
		}
	}
	return true
}

// errorSources are the calls whose error the return s of fn hands back on
// a path where it is not nil: the error merged from each path, a nil
// constant or a value a test found nil on its edge dropped. Nil when a
// value that is not nil comes from anything but a call of fn.
func (a *analysis) errorSources(fn *ssa.Function, s *ast.ReturnStmt) []*ast.CallExpr {
	r := ssaReturnAt(fn, s)
	if r == nil || len(r.Results) == 0 {
		return nil
	}
	byPos := map[token.Pos]*ast.CallExpr{}
	for _, c := range a.callsIn(fn) {
		byPos[c.expr.Lparen] = c.expr
	}
	var out []*ast.CallExpr
	ok := true
	seen := map[ssa.Value]bool{}
	var visit func(v ssa.Value, at *ssa.BasicBlock)
	visit = func(v ssa.Value, at *ssa.BasicBlock) {
		if !ok || seen[v] {
			return
		}
		seen[v] = true
		if k, isConst := v.(*ssa.Const); isConst && k.IsNil() || dominatingNilTest(at, v) == testedNil {
			return
		}
		switch x := v.(type) {
		case *ssa.Phi:
			for i, e := range x.Edges {
				pred := x.Block().Preds[i]
				if !leavesNil(pred, x.Block(), e) {
					visit(e, pred)
				}
			}
			return
		case *ssa.Extract:
			v = x.Tuple
		}
		call, isCall := v.(*ssa.Call)
		if !isCall || byPos[call.Pos()] == nil {
			ok = false
			return
		}
		out = append(out, byPos[call.Pos()])
	}
	visit(unwrapped(resultOf(r, len(r.Results)-1)), r.Block())
	if !ok {
		return nil
	}
	return out
}

// reportsSuccess reports whether the call ce in fn reports the pass's
// outcome and is handed a success: it calls a function of the tree's
// with one error parameter, handed nil here and, at another of its calls
// in the tree, a value that is not nil (if err != nil { return
// r.status(ctx, obj, err) }; …; return r.status(ctx, obj, nil)). What it
// hands back then is its own failure (the report's write), after the
// work succeeded, not the work's.
func (a *analysis) reportsSuccess(fn *ssa.Function, info *types.Info, ce *ast.CallExpr) bool {
	c := a.makeCall(info, ce, fn)
	if c.known || len(c.own) != 1 {
		return false
	}
	callee := c.own[0]
	sig := callee.Signature
	param := -1
	for i := range sig.Params().Len() {
		if isErrorType(sig.Params().At(i).Type()) {
			if param >= 0 {
				return false
			}
			param = i
		}
	}
	if param < 0 || param >= len(ce.Args) || !isNil(info, ce.Args[param]) {
		return false
	}
	for _, e := range a.prog.CallsInto(callee) {
		if e.Site == nil {
			continue
		}
		com := e.Site.Common()
		i := param
		if com.StaticCallee() == callee && sig.Recv() != nil {
			i++ // the receiver comes first (not for a bound method value)
		}
		if i >= len(com.Args) {
			continue
		}
		if k, ok := com.Args[i].(*ssa.Const); !ok || !k.IsNil() {
			return true
		}
	}
	return false
}

// savedEnd reports whether a failure site is the end of its function's
// success path and hands back only a status write's failure
// (savedOnlyError).
func (a *analysis) savedEnd(r *retSite, kind *types.Named) bool {
	end := a.successEnd(r.in, kind)
	return r.ret != nil && end != nil && r.ret.Pos() == end.Pos() && a.savedOnlyError(r, kind)
}

// withoutSavedEnds is rets without the sites savedEnd reports.
func (a *analysis) withoutSavedEnds(rets []retSite, kind *types.Named) []retSite {
	var out []retSite
	for i := range rets {
		if !a.savedEnd(&rets[i], kind) {
			out = append(out, rets[i])
		}
	}
	return out
}

// sameRet is the element of rets that r, a site of a copy of it, is.
func sameRet(rets []retSite, r *retSite) *retSite {
	for i := range rets {
		if rets[i].in == r.in && rets[i].pos == r.pos && rets[i].class == r.class && rets[i].split == r.split {
			return &rets[i]
		}
	}
	return r
}
