package locate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A pass that ends in a status write: whether that write's failure is the
// main work's, or a failure of work before it is, decided by what each
// failure is made of (work, or bookkeeping: reads, status writes, the
// finalizer's addition persisted, the deletion's branch).

// statusEndAsWork is the main work's failure given the one chosen, when
// the success path ends in a status write after which the pass hands
// back nothing else: the failure chosen stays when it is proven a
// failure of work (workFailure); that write is the pass's work when the
// failure chosen is none or only bookkeeping (bookkeepingFailure); else
// which one is the main work's is not settled, and why says so.
func (a *analysis) statusEndAsWork(rets []retSite, primary *retSite, kind *types.Named, isFailure func(string) bool) (*retSite, string) {
	var end *retSite
	for i := range rets {
		if r := &rets[i]; isFailure(r.class) && a.savedEnd(r, kind) && r != primary {
			end = r
			break
		}
	}
	switch {
	case end == nil:
		return primary, ""
	case primary == nil:
		return end, ""
	case a.workFailure(primary, kind):
		return primary, ""
	case a.bookkeepingFailure(primary, kind):
		return end, ""
	}
	return nil, fmt.Sprintf("not settled: the pass ends in a status write at %s, the main work's failure unless one of work comes before it; whether the failure at %s is one, ctrlcmp does not tell", fileLine(a.site(end.pos)), fileLine(a.site(primary.pos)))
}

// pastStatusWrite is the main work's failure given the one chosen, when
// that one hands back only the failure of a status write some passes make
// before the pass ends, under a condition the failures before it are not
// under (`if changed { if err := r.Status().Update(…); err != nil { return
// …, err } }; return …`): the nearest failure before it, handed back in
// its function (itself, or the return of a helper holding it), that is
// proven one of work, past those that are only bookkeeping; not settled,
// saying why, at one that is neither. The one chosen stays when there is
// none. (A status write every pass through the work makes, last, is the
// pass's work.)
func (a *analysis) pastStatusWrite(rets []retSite, primary *retSite, kind *types.Named, isFailure func(string) bool) (*retSite, string) {
	if primary == nil || !a.savedOnlyError(primary, kind) {
		return primary, ""
	}
	type before struct {
		r  *retSite
		at token.Pos
	}
	var cands []before
	for i := range rets {
		r := &rets[i]
		if p := r.posIn(primary.in); isFailure(r.class) && p.IsValid() && p < primary.pos {
			cands = append(cands, before{r, p})
		}
	}
	slices.SortStableFunc(cands, func(x, y before) int { return cmp.Compare(y.at, x.at) })
	for _, c := range cands {
		switch {
		case !a.conditionalBeside(primary, c.at):
			return primary, ""
		case a.workFailure(c.r, kind):
			return c.r, ""
		case a.bookkeepingFailure(c.r, kind):
			continue
		}
		return nil, fmt.Sprintf("not settled: the failure at %s hands back only the error of a status write some passes make; whether the failure at %s before it is one of work, ctrlcmp does not tell", fileLine(a.site(primary.pos)), fileLine(a.site(c.r.pos)))
	}
	return primary, ""
}

// conditionalBeside reports whether a failure return that hands back a
// variable stands under a condition, other than its test of that
// variable, that does not hold the position pos.
func (a *analysis) conditionalBeside(r *retSite, pos token.Pos) bool {
	if r.at == nil {
		return false
	}
	info := a.infoAt(r.at.Pos())
	id, ok := ast.Unparen(errorOf(r.at)).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	child := r.at
	for _, n := range a.path(r.at.Pos(), r.at.End()) {
		conditional := false
		switch x := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return false
		case *ast.IfStmt:
			conditional = child != x.Init && child != ast.Node(x.Cond) && !nilTestOf(info, x.Cond, v)
		case *ast.CaseClause, *ast.CommClause, *ast.ForStmt, *ast.RangeStmt:
			conditional = true
		}
		if conditional && !(n.Pos() <= pos && pos < n.End()) {
			return true
		}
		child = n
	}
	return false
}

// workFailure reports whether a failure return hands back only failures
// of work: of calls that are no read, no status write and no persisting
// of the finalizer's addition, each followed (a library function, or a
// function of the tree's whose failures are not all bookkeeping).
func (a *analysis) workFailure(r *retSite, kind *types.Named) bool {
	return a.workFailureIn(r, kind, 0)
}

// workFailureIn is workFailure, depth helpers deep: a helper of the
// tree's fails with work when one of its returns is proven to.
func (a *analysis) workFailureIn(r *retSite, kind *types.Named, depth int) bool {
	if kind == nil || r.ret == nil || depth > 2 || a.inDeletionBranch(r.in, r.ret.Pos(), kind) {
		return false
	}
	work := func(info *types.Info, ce *ast.CallExpr) bool {
		if a.bookkeepingCall(r.in, info, ce, kind, depth) || a.filteredError(r.in, info, ce) != nil {
			return false // (a filter's error is the one it is handed, not followed here)
		}
		c := a.makeCall(info, ce, r.in)
		switch {
		case c.known:
			return true
		case len(c.own) > 0:
			return slices.ContainsFunc(c.own, func(fn *ssa.Function) bool { return a.failsWithWork(fn, kind, depth+1) })
		}
		return c.fn != nil
	}
	return a.underFailedCall(r, work) || madeError(r) || a.errorMadeBy(r, work)
}

// madeError reports whether a return hands back an error value it makes
// (return &ConfigurationError{…}): a failure the work found.
func madeError(r *retSite) bool {
	ret, ok := r.ret.(*ast.ReturnStmt)
	if !ok || len(ret.Results) == 0 {
		return false
	}
	e := ast.Unparen(ret.Results[len(ret.Results)-1])
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	_, ok = e.(*ast.CompositeLit)
	return ok
}

// underFailedCall reports whether a return stands in the branch of an
// if err != nil whose err, where the return stands, a call work accepts
// made: the return handles that call's failure, whatever error it hands
// back (a failure recorded in the status, that write's error returned).
func (a *analysis) underFailedCall(r *retSite, work func(*types.Info, *ast.CallExpr) bool) bool {
	ret, ok := r.ret.(*ast.ReturnStmt)
	if !ok {
		return false
	}
	info := a.infoAt(ret.Pos())
	for _, n := range a.path(ret.Pos(), ret.End()) {
		is, ok := n.(*ast.IfStmt)
		if !ok || ret.Pos() < is.Body.Pos() || ret.Pos() >= is.Body.End() {
			continue
		}
		be, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.NEQ {
			return false
		}
		x, y := be.X, be.Y
		if isNil(info, x) {
			x, y = y, x
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok || !isNil(info, y) || !isErrorType(info.TypeOf(x)) {
			return false
		}
		ce, ok := ast.Unparen(a.valueAtReturn(info, ret, id)).(*ast.CallExpr)
		return ok && work(info, ce)
	}
	return false
}

// failsWithWork reports whether a return of fn hands back a failure
// workFailureIn proves one of work.
func (a *analysis) failsWithWork(fn *ssa.Function, kind *types.Named, depth int) bool {
	info, rets := a.returnsIn(fn)
	return slices.ContainsFunc(rets, func(ret *ast.ReturnStmt) bool {
		return len(ret.Results) > 0 && !isNil(info, ret.Results[len(ret.Results)-1]) && a.workFailureIn(&retSite{ret: ret, in: fn}, kind, depth)
	})
}

// returnsIn are the return statements of fn's body, outside the function
// literals in it, and the body's types; none when fn has no body.
func (a *analysis) returnsIn(fn *ssa.Function) (*types.Info, []*ast.ReturnStmt) {
	b := body(fn)
	if b == nil {
		return nil, nil
	}
	var out []*ast.ReturnStmt
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			out = append(out, n)
		}
		return true
	})
	return a.infoAt(b.Pos()), out
}

// bookkeepingFailure reports whether a failure return hands back only the
// failure of a read (the object's re-read, a lookup of another object),
// of a status write, or of the write that persists the finalizer's
// addition, or stands in a branch taken while the object is being
// deleted: the failure of no work the pass does on an object that stays.
func (a *analysis) bookkeepingFailure(r *retSite, kind *types.Named) bool {
	return a.bookkeepingIn(r, kind, 0)
}

// bookkeepingIn is bookkeepingFailure, depth helpers deep: a helper of
// the tree's whose every return hands back nil or such a failure (a
// read of the object wrapped in a function) fails only as they do.
func (a *analysis) bookkeepingIn(r *retSite, kind *types.Named, depth int) bool {
	if kind == nil || r.ret == nil || depth > 2 {
		return false
	}
	if a.inDeletionBranch(r.in, r.ret.Pos(), kind) {
		return true
	}
	return a.errorMadeOnlyBy(r, func(info *types.Info, ce *ast.CallExpr) bool {
		return a.bookkeepingCall(r.in, info, ce, kind, depth)
	})
}

// bookkeepingCall reports whether the call ce of fn fails only as
// bookkeeping does: a read, a status write, the write persisting the
// finalizer's addition, or a helper of the tree's whose every failure is
// one of those.
func (a *analysis) bookkeepingCall(fn *ssa.Function, info *types.Info, ce *ast.CallExpr, kind *types.Named, depth int) bool {
	c := a.makeCall(info, ce, fn)
	if c.known && (c.fact.Role == RoleRead || c.fact.Role == RoleList) {
		return true
	}
	if len(c.own) == 1 && a.failsOnlyAs(c.own[0], kind, depth+1) {
		return true
	}
	if a.statusWriteOnly(fn, info, ce, kind) && !handsError(info, ce) {
		return true // (a report handed the work's error may hand that back)
	}
	w, writes := a.writeOf(info, c)
	return writes && !w.status && passesKind(info, c, kind) && a.afterFinalizerAdd(fn, ce.Pos())
}

// addsFinalizer reports whether a call adds a finalizer: a library's
// AddFinalizer, or a helper of the tree's that makes one, depth calls
// deep.
func (a *analysis) addsFinalizer(c call, depth int) bool {
	if c.known {
		return c.fact.Role == RoleFinalizerAdd
	}
	if depth >= 2 {
		return false
	}
	for _, fn := range c.own {
		for _, cc := range a.callsIn(fn) {
			if a.addsFinalizer(cc, depth+1) {
				return true
			}
		}
	}
	return false
}

// handsError reports whether a call is handed an error that is not nil.
func handsError(info *types.Info, ce *ast.CallExpr) bool {
	for _, arg := range ce.Args {
		if t := info.TypeOf(arg); t != nil && isErrorType(t) && !isNil(info, arg) {
			return true
		}
	}
	return false
}

// failsOnlyAs reports whether every return of fn hands back, as its last
// result, nil or a failure bookkeepingIn accepts (a bare return's named
// results are not read here); false when fn has no body.
func (a *analysis) failsOnlyAs(fn *ssa.Function, kind *types.Named, depth int) bool {
	info, rets := a.returnsIn(fn)
	return info != nil && !slices.ContainsFunc(rets, func(ret *ast.ReturnStmt) bool {
		return len(ret.Results) == 0 || !isNil(info, ret.Results[len(ret.Results)-1]) && !a.bookkeepingIn(&retSite{ret: ret, in: fn}, kind, depth)
	})
}

// afterFinalizerAdd reports whether a block of fn holding pos adds a
// finalizer before it: the write at pos persists that addition.
func (a *analysis) afterFinalizerAdd(fn *ssa.Function, pos token.Pos) bool {
	b := body(fn)
	if b == nil {
		return false
	}
	info := a.infoAt(b.Pos())
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if found || n == nil || pos < n.Pos() || pos >= n.End() {
			return false
		}
		blk, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for _, st := range blk.List {
			if st.Pos() >= pos {
				break
			}
			ast.Inspect(st, func(m ast.Node) bool {
				if ce, ok := m.(*ast.CallExpr); ok {
					found = a.addsFinalizer(a.makeCall(info, ce, fn), 0)
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// inDeletionBranch reports whether pos lies in a deletion branch of fn
// (deletionBranches: an if's branch taken while the object is being
// deleted, the statements after one returning when it is not, a case).
func (a *analysis) inDeletionBranch(fn *ssa.Function, pos token.Pos, kind *types.Named) bool {
	b := body(fn)
	if b == nil {
		return false
	}
	return slices.ContainsFunc(a.deletionBranches(a.infoAt(b.Pos()), b, kind), func(d deletionBranch) bool {
		return d.branch.Pos() <= pos && pos < d.branch.End()
	})
}
