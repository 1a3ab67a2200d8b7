package locate

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// retSite is a return of a reconcile function, classified.
type retSite struct {
	pos   token.Pos
	class string
	in    *ssa.Function
	// interval is what names the RequeueAfter duration (a field, a
	// variable, a getter), when there is one.
	interval types.Object
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
	// afterWork says the return waits after a write that succeeded in its
	// own block (a child just created): a dependency wait, not a retry.
	afterWork bool
}

type guard int

// scope is what the conditions around a return say about it.
type scope struct {
	guard guard
	// terminal says a condition tests for a TerminalError, so the error
	// returned under it is one.
	terminal bool
}

const (
	guardNone  guard = iota
	guardOther       // under a condition that tests no error
	guardError       // under a condition that tests an error
)

// resultRequeues classifies every return of the reconcile path of a
// controller-runtime reconciler, following returns that hand back a helper's
// result.
func (a *analysis) resultRequeues(f *found) *requeues {
	out := &requeues{}
	var rets []retSite
	a.returns(f.entry, scope{}, map[*ssa.Function]bool{}, &rets)
	rets = append(rets, a.deferredResults(f.entry)...)
	// A failure path that requeues after a setting of the controller's own
	// (a field of the reconciler) that it also waits on dependencies with
	// is waiting on a dependency too; an interval of the object is a retry.
	waits := map[types.Object]bool{}
	for _, r := range rets {
		if v, ok := r.interval.(*types.Var); ok && r.class == ClassDependencyWait && v.IsField() && v.Pkg() == f.entry.Pkg.Pkg {
			waits[r.interval] = true
		}
	}
	for i := range rets {
		if rets[i].class == ClassRetryAfterFailure && waits[rets[i].interval] {
			rets[i].class = ClassDependencyWait
		}
	}

	var success *retSite
	for i := range rets {
		if rets[i].class == ClassSuccessInterval {
			out.successReturns = append(out.successReturns, rets[i].ret.Pos())
			if success == nil || rets[i].in == f.entry {
				success = &rets[i]
			}
		}
	}
	isFailure := func(c string) bool { return c == ClassErrorBackoff || c == ClassRetryAfterFailure }
	// With no success requeue, the entry's final return stands for the
	// success return; when it is bare, a deferred closure's failure
	// assignment to the named error is what that return hands back last.
	bareEnd := success == nil && endsBare(f.entry)
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
		case bareEnd && r.deferred:
			if primary == nil || !primary.deferred || r.pos > primary.pos {
				primary = r
			}
		case r.in == f.entry && (primary == nil || !primary.deferred && r.pos > primary.pos):
			primary = r
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
		s.Note = r.note
		if r == primary {
			s.Primary = true
		}
		errSites = append(errSites, s)
	}
	if primary == nil && len(errSites) > 0 {
		for i := range errSites {
			if errSites[i].Class != ClassTerminal {
				errSites[i].Primary = true
				break
			}
		}
	}
	errRow := Row{Sites: errSites}
	if _, ok := (Row{Sites: errSites}).Primary(); !ok {
		errRow = none("no failure path returns an error or a retry requeue")
		if len(errSites) > 0 {
			errRow.Sites = errSites
			errRow.None = "every failure return is terminal: nothing comes back on error"
		}
	}
	if primary != nil && primary.class == ClassRetryAfterFailure {
		out.retry = &timedRequeue{in: primary.in, at: primary.at, duration: primary.after}
	}
	if success == nil {
		// Prefer a result built by a call (a builder) to one merely held
		// in a variable.
		sort.SliceStable(rets, func(i, j int) bool { return isCall(rets[i].opaque) && !isCall(rets[j].opaque) })
		for _, r := range rets {
			if r.opaque != nil {
				s := a.site(r.pos)
				why := fmt.Sprintf("the result is built by %s at %s:%d, which ctrlcmp does not follow into", a.exprText(callee(r.opaque)), s.File, s.Line)
				if r.note != "" {
					why = fmt.Sprintf("%s at %s:%d", r.note, s.File, s.Line)
				}
				out.onError, out.onSuccess = errRow, none("not settled: "+why+"; read it to see whether a success requeues (no return on the paths it follows sets RequeueAfter)")
				return out
			}
		}
		// No steady-state requeue, but a wait after work that succeeded
		// (a child just created): that is the requeue a success makes.
		for _, r := range rets {
			if r.afterWork {
				out.success = &timedRequeue{in: r.in, at: r.at, duration: r.after}
				s := a.site(r.pos)
				s.Class = ClassDependencyWait
				s.Primary = true
				s.Note = joinNotes(r.note, "a wait after work that succeeded, on what that work made; the final success return does not requeue: the steady state is event-driven")
				out.onError, out.onSuccess = errRow, Row{Sites: []Site{s}}
				return out
			}
		}
		reason := "event-driven only: no return on the success path sets RequeueAfter, so the object is reconciled again only on watch events"
		if ps := a.syncPeriods(); len(ps) > 0 {
			reason += fmt.Sprintf(" and the cache's resync every %s (%s:%d)", ps[0].Note, ps[0].File, ps[0].Line)
		} else {
			reason += " and the cache's periodic resync (no SyncPeriod is set in the tree: controller-runtime's default applies)"
		}
		out.onError, out.onSuccess = errRow, none(reason)
		return out
	}
	out.success = &timedRequeue{in: success.in, at: success.at, duration: success.after}
	s := a.site(success.pos)
	s.Class = ClassSuccessInterval
	s.Primary = true
	s.Note = success.note
	out.onError, out.onSuccess = errRow, Row{Sites: []Site{s}}
	return out
}

// returns collects the classified returns of fn under a guard.
func (a *analysis) returns(fn *ssa.Function, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	if seen[fn] {
		return
	}
	seen[fn] = true
	b := body(fn)
	if b == nil {
		return
	}
	info := a.infoAt(b.Pos())
	a.walkReturns(info, b, sc, func(r *ast.ReturnStmt, sc scope) {
		a.classifyReturn(fn, info, r, sc, seen, out)
	})
}

// walkReturns visits the returns of a body (not of its closures) with what
// the conditions around each say of it.
func (a *analysis) walkReturns(info *types.Info, b *ast.BlockStmt, sc scope, visit func(*ast.ReturnStmt, scope)) {
	under := func(sc scope, g guard, cond ast.Expr) scope {
		sc.guard = max(sc.guard, g)
		sc.terminal = sc.terminal || cond != nil && a.testsTerminal(info, cond)
		return sc
	}
	var walk func(n ast.Stmt, sc scope)
	walkList := func(list []ast.Stmt, sc scope) {
		for _, s := range list {
			walk(s, sc)
		}
	}
	walk = func(n ast.Stmt, sc scope) {
		switch s := n.(type) {
		case *ast.BlockStmt:
			walkList(s.List, sc)
		case *ast.LabeledStmt:
			walk(s.Stmt, sc)
		case *ast.IfStmt:
			cg := condGuard(info, s.Cond)
			walk(s.Body, under(sc, cg, s.Cond))
			if s.Else != nil {
				eg := guardNone
				if cg == guardOther {
					eg = guardOther
				}
				walk(s.Else, under(sc, eg, nil))
			}
		case *ast.ForStmt:
			walk(s.Body, under(sc, guardOther, nil))
		case *ast.RangeStmt:
			walk(s.Body, under(sc, guardOther, nil))
		case *ast.SwitchStmt:
			walk(s.Body, sc)
		case *ast.TypeSwitchStmt:
			walk(s.Body, sc)
		case *ast.SelectStmt:
			walk(s.Body, sc)
		case *ast.CaseClause:
			inner := under(sc, guardOther, nil)
			for _, e := range s.List {
				inner = under(inner, condGuard(info, e), e)
			}
			walkList(s.Body, inner)
		case *ast.CommClause:
			walkList(s.Body, under(sc, guardOther, nil))
		case *ast.ReturnStmt:
			visit(s, sc)
		}
	}
	walkList(b.List, sc)
}

func (a *analysis) classifyReturn(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	switch len(s.Results) {
	case 0:
		a.classifyBare(fn, info, s, sc, seen, out)
	case 1:
		a.followResults(fn, info, s.Results[0], sc, seen, out)
	case 2:
		a.classifyPair(fn, info, s, s, s.Results[0], s.Results[1], sc, out)
	}
}

// followResults classifies the returns of the tree's own functions a call
// hands its results back from (return r.reconcile(ctx, obj)).
func (a *analysis) followResults(fn *ssa.Function, info *types.Info, e ast.Expr, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	if ce, ok := ast.Unparen(e).(*ast.CallExpr); ok {
		if c := a.makeCall(info, ce, fn); len(c.own) > 0 && !c.known {
			for _, callee := range c.own {
				a.returns(callee, sc, seen, out)
			}
		}
	}
}

// classifyBare classifies a bare return from the assignment of the named
// results that reaches it: that assignment is the site, the return the
// evidence that hands it back. Named results never assigned before the
// return are the zero result and a nil error; an assignment the return may
// or may not see (under a condition) leaves the result not settled.
func (a *analysis) classifyBare(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, sc scope, seen map[*ssa.Function]bool, out *[]retSite) {
	idents := namedResults(fn)
	if len(idents) != 2 || typeKey(info.TypeOf(idents[0])) != typeResult {
		return
	}
	named := []types.Object{info.Defs[idents[0]], info.Defs[idents[1]]}
	resAs, resOK := a.reachingAssignment(info, s, named[0])
	errAs, errOK := a.reachingAssignment(info, s, named[1])
	retLine := a.site(s.Pos()).Line
	// value is what an assignment gives the named result i, when it
	// assigns it alone or with a value of its own.
	value := func(as *ast.AssignStmt, i int) (ast.Expr, bool) {
		if as == nil {
			return nil, true
		}
		if len(as.Lhs) != len(as.Rhs) {
			return nil, false
		}
		for j, l := range as.Lhs {
			if assigns(info, l, named[i]) {
				return as.Rhs[j], true
			}
		}
		return nil, false
	}
	res, resVal := value(resAs, 0)
	errE, errVal := value(errAs, 1)
	switch {
	case !resOK || !errOK:
		*out = append(*out, retSite{pos: s.Pos(), in: fn, ret: s, at: s, opaque: idents[0],
			note: "the named results this bare return hands back are assigned under a condition before it"})
	case resAs != nil && resAs == errAs && len(resAs.Lhs) == 2 && len(resAs.Rhs) == 1:
		// result, retErr = r.reconcile(ctx, obj): the callee's returns.
		a.followResults(fn, info, resAs.Rhs[0], sc, seen, out)
	case !resVal || !errVal:
		at := cmp.Or(resAs, errAs)
		*out = append(*out, retSite{pos: at.Pos(), in: fn, ret: s, at: at, opaque: at.Rhs[0]})
	default:
		// A named result never assigned is its zero value (nil below).
		var at ast.Node = s
		switch {
		case resAs != nil && (errAs == nil || resAs.Pos() > errAs.Pos()):
			at = resAs
		case errAs != nil:
			at = errAs
		}
		a.classifyPair(fn, info, s, at, res, errE, sc, out)
		if at != ast.Node(s) {
			(*out)[len(*out)-1].note = fmt.Sprintf("handed back by the bare return at line %d", retLine)
		}
	}
}

// classifyPair classifies a result and an error handed back by the return
// s, made at at (the return itself, or the assignment of the named results);
// a nil res or errE is a named result's zero value.
func (a *analysis) classifyPair(fn *ssa.Function, info *types.Info, s *ast.ReturnStmt, at ast.Node, res, errE ast.Expr, sc scope, out *[]retSite) {
	var requeue bool
	var afterExpr ast.Expr
	var interval types.Object
	if res != nil {
		res = a.lastValue(fn, info, res)
		requeue, afterExpr = resultFields(info, res)
		interval = namedBy(info, afterExpr)
	}
	if res != nil && !isResultLiteral(info, res) {
		built, ok := a.builtResult(fn, info, res)
		if !ok {
			*out = append(*out, retSite{pos: at.Pos(), in: fn, ret: s, at: at, opaque: res})
			return
		}
		requeue, afterExpr, interval = built.requeue, nil, built.interval
		if built.after != nil {
			// The trace starts at the call and follows it into the helper.
			afterExpr = res
		}
	}
	errClass := "nil"
	switch {
	case errE == nil || isNil(info, errE):
	case a.isTerminal(info, errE) || sc.terminal:
		errClass = ClassTerminal
	default:
		errClass = "error"
	}
	after := afterExpr != nil
	g := sc.guard
	afterWork := after && errClass == "nil" && g != guardNone && a.followsWrite(fn, info, s)
	class := ClassNone
	switch {
	case errClass == ClassTerminal:
		class = ClassTerminal
	case errClass == "error":
		class = ClassErrorBackoff
	case requeue:
		class = ClassImmediate
	case afterWork:
		class = ClassDependencyWait
	case after && g == guardError:
		class = ClassRetryAfterFailure
	case after && g == guardOther:
		class = ClassDependencyWait
	case after:
		class = ClassSuccessInterval
	}
	*out = append(*out, retSite{pos: at.Pos(), class: class, in: fn, interval: interval, after: afterExpr, ret: s, at: at, afterWork: afterWork})
}

// builtResult is what the returns of a result-building helper say.
type builtResult struct {
	requeue bool
	// after is a RequeueAfter expression of the helper's, interval what
	// names it.
	after    ast.Expr
	interval types.Object
}

// builtResult follows a result made by a call of the tree's own functions
// (return r.requeueResult(obj), nil) into their returns: each must hand
// back a reconcile.Result literal (or a variable last assigned one), else
// the result is not followed.
func (a *analysis) builtResult(fn *ssa.Function, info *types.Info, e ast.Expr) (builtResult, bool) {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return builtResult{}, false
	}
	c := a.makeCall(info, ce, fn)
	if len(c.own) == 0 || c.known {
		return builtResult{}, false
	}
	var out builtResult
	found := false
	for _, callee := range c.own {
		b := body(callee)
		if b == nil {
			return builtResult{}, false
		}
		cinfo := a.infoAt(b.Pos())
		settled := true
		ast.Inspect(b, func(n ast.Node) bool {
			switch r := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(r.Results) != 1 {
					settled = false
					return false
				}
				v := a.lastValue(callee, cinfo, r.Results[0])
				if !isResultLiteral(cinfo, v) {
					settled = false
					return false
				}
				found = true
				requeue, after := resultFields(cinfo, v)
				out.requeue = out.requeue || requeue
				if after != nil {
					out.after, out.interval = after, namedBy(cinfo, after)
				}
			}
			return settled
		})
		if !settled {
			return builtResult{}, false
		}
	}
	return out, found
}

// namedResults returns the names a function declares for its results.
func namedResults(fn *ssa.Function) []*ast.Ident {
	var ft *ast.FuncType
	switch s := fn.Syntax().(type) {
	case *ast.FuncDecl:
		ft = s.Type
	case *ast.FuncLit:
		ft = s.Type
	}
	if ft == nil || ft.Results == nil {
		return nil
	}
	var out []*ast.Ident
	for _, f := range ft.Results.List {
		out = append(out, f.Names...)
	}
	return out
}

// assigns reports whether the left-hand side l assigns the variable v.
func assigns(info *types.Info, l ast.Expr, v types.Object) bool {
	id, ok := ast.Unparen(l).(*ast.Ident)
	return ok && v != nil && info.Uses[id] == v
}

// reachingAssignment finds the assignment of a named result that a bare
// return hands back: walking out from the return, the nearest statement
// before it, in each enclosing block, that assigns it (an if whose
// branches assign it only before leaving the function does not; the
// assignment in its init does). It is nil when none does (the zero
// value), and not settled when the nearest one that touches it does so
// under a condition that falls through, or in a loop.
func (a *analysis) reachingAssignment(info *types.Info, ret *ast.ReturnStmt, v types.Object) (*ast.AssignStmt, bool) {
	touches := func(n ast.Node) bool {
		found := false
		if n == nil {
			return false
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					found = found || assigns(info, l, v)
				}
			case *ast.UnaryExpr:
				found = found || x.Op == token.AND && assigns(info, x.X, v)
			}
			return !found
		})
		return found
	}
	// earlier says what an earlier statement of the same block does to v:
	// assigns it (as), leaves it (neither), or may or may not (unsettled).
	var earlier func(st ast.Stmt) (as *ast.AssignStmt, touched, settled bool)
	earlier = func(st ast.Stmt) (*ast.AssignStmt, bool, bool) {
		if !touches(st) {
			return nil, false, true
		}
		switch x := st.(type) {
		case *ast.AssignStmt:
			return x, true, x.Tok == token.ASSIGN
		case *ast.IfStmt:
			for _, br := range []ast.Stmt{x.Body, x.Else} {
				if touches(br) && !leaves(br) {
					return nil, true, false
				}
			}
			if x.Init != nil {
				return earlier(x.Init)
			}
			return nil, false, true
		}
		return nil, true, false
	}
	child := ast.Node(ret)
	for _, n := range a.path(ret.Pos(), ret.End()) {
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return nil, true
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		case *ast.IfStmt:
			if b.Init != nil && child != b.Init {
				if as, touched, settled := earlier(b.Init); touched || !settled {
					return as, settled
				}
			}
		case *ast.ForStmt, *ast.RangeStmt:
			// A loop's earlier iterations may have assigned it.
			if touches(n) {
				return nil, false
			}
		}
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Pos() >= child.Pos() {
				continue
			}
			if as, touched, settled := earlier(list[i]); touched || !settled {
				return as, settled
			}
		}
		child = n
	}
	return nil, false
}

// leaves reports whether a branch ends by leaving the function (or the
// loop or switch that holds it), so nothing it assigns falls through.
func leaves(st ast.Stmt) bool {
	b, ok := st.(*ast.BlockStmt)
	if !ok {
		return false
	}
	if len(b.List) == 0 {
		return false
	}
	switch x := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := x.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	}
	return false
}

// endsBare reports whether a function's last statement is a bare return.
func endsBare(fn *ssa.Function) bool {
	b := body(fn)
	if b == nil || len(b.List) == 0 {
		return false
	}
	r, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	return ok && len(r.Results) == 0
}

// joinNotes joins the notes of a site that are not empty.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// followsWrite reports whether a statement before the return, in the block
// that holds it, writes to the API server (events aside): the return then
// comes after work that succeeded, or the write's failure would have
// returned first.
func (a *analysis) followsWrite(fn *ssa.Function, info *types.Info, ret *ast.ReturnStmt) bool {
	var list []ast.Stmt
	for _, n := range a.path(ret.Pos(), ret.End()) {
		switch b := n.(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		default:
			continue
		}
		break
	}
	found := false
	for _, st := range list {
		if st.Pos() >= ret.Pos() {
			break
		}
		ast.Inspect(st, func(n ast.Node) bool {
			if _, lit := n.(*ast.FuncLit); lit || found {
				return false
			}
			if ce, ok := n.(*ast.CallExpr); ok {
				c := a.makeCall(info, ce, fn)
				if w, ok := a.writeOf(info, c); ok && !(c.known && c.fact.Role == RoleEvent) && w.verb != "" {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// testsTerminal reports whether a condition asks whether an error is a
// TerminalError (errors.Is(err, reconcile.TerminalError(nil))).
func (a *analysis) testsTerminal(info *types.Info, cond ast.Expr) bool {
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && a.isTerminal(info, c) {
			found = true
		}
		return !found
	})
	return found
}

// isResultLiteral reports whether e is a reconcile.Result literal.
func isResultLiteral(info *types.Info, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && typeKey(info.TypeOf(lit)) == typeResult
}

// lastValue resolves a local variable to the value last assigned to it
// before its use (result := ctrl.Result{RequeueAfter: d}; ...; return
// result, nil); any other expression is returned as it is.
func (a *analysis) lastValue(fn *ssa.Function, info *types.Info, e ast.Expr) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	b := body(fn)
	if !ok || b == nil {
		return e
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return e
	}
	last := e
	ast.Inspect(b, func(n ast.Node) bool {
		if n == nil || n.Pos() > id.Pos() {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					if lid, ok := l.(*ast.Ident); ok && (info.Defs[lid] == v || info.Uses[lid] == v) {
						last = n.Rhs[i]
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if info.Defs[name] == v && i < len(n.Values) {
					last = n.Values[i]
				}
			}
		}
		return true
	})
	return last
}

// isTerminal reports whether an error expression is a TerminalError.
func (a *analysis) isTerminal(info *types.Info, e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	cl := a.makeCall(info, c, nil)
	return cl.known && cl.fact.Role == RoleTerminalError
}

// resultFields reads a reconcile.Result literal: Requeue true, and the
// RequeueAfter expression when it is not known to be zero.
func resultFields(info *types.Info, e ast.Expr) (requeue bool, after ast.Expr) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || typeKey(info.TypeOf(lit)) != typeResult {
		return false, nil
	}
	keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		tv := info.Types[kv.Value]
		switch fieldKey(v, info.TypeOf(lit)) {
		case fieldResultRequeue:
			requeue = tv.Value == nil || constant.BoolVal(tv.Value)
		case fieldResultRequeueAfter:
			if tv.Value == nil || constant.Sign(tv.Value) > 0 {
				after = kv.Value
			}
		}
	})
	return requeue, after
}

// condGuard says whether a condition tests an error.
func condGuard(info *types.Info, cond ast.Expr) guard {
	g := guardOther
	ast.Inspect(cond, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok {
			if t := info.TypeOf(e); t != nil && isErrorType(t) {
				g = guardError
				return false
			}
		}
		return true
	})
	return g
}

// deferredResults classifies the values a deferred closure of the entry
// stores into its named results (retErr = ..., result = ...).
func (a *analysis) deferredResults(entry *ssa.Function) []retSite {
	fd, ok := entry.Syntax().(*ast.FuncDecl)
	if !ok || fd.Type.Results == nil {
		return nil
	}
	info := a.infoAt(fd.Pos())
	named := map[types.Object]bool{}
	for _, f := range fd.Type.Results.List {
		for _, id := range f.Names {
			named[info.Defs[id]] = true
		}
	}
	if len(named) == 0 {
		return nil
	}
	var out []retSite
	seen := map[*ssa.Function]bool{entry: true}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		d, ok := n.(*ast.DeferStmt)
		if !ok {
			return true
		}
		lit, ok := d.Call.Fun.(*ast.FuncLit)
		if !ok {
			return false
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
				// result, retErr = helper.Summarize(...): built by a helper,
				// followed into the tree's own functions it may run.
				for _, l := range as.Lhs {
					if id, ok := l.(*ast.Ident); ok && named[info.Uses[id]] && typeKey(info.TypeOf(id)) == typeResult {
						closure := a.bySyntax[lit]
						n := len(out)
						a.followResults(closure, info, as.Rhs[0], scope{}, seen, &out)
						if len(out) == n {
							out = append(out, retSite{pos: as.Pos(), in: closure, ret: as, at: as, opaque: as.Rhs[0], deferred: true})
						}
					}
				}
				return true
			}
			if len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok || !named[info.Uses[id]] {
					continue
				}
				class := ""
				var after ast.Expr
				switch t := info.TypeOf(id); {
				case isErrorType(t) && !isNil(info, as.Rhs[i]):
					class = ClassErrorBackoff
				case typeKey(t) == typeResult:
					var requeue bool
					if requeue, after = resultFields(info, as.Rhs[i]); requeue {
						class = ClassImmediate
					} else if after != nil {
						class = ClassRetryAfterFailure
					}
				}
				if class != "" {
					out = append(out, retSite{pos: as.Pos(), class: class, in: a.bySyntax[lit], ret: as, at: as, after: after, deferred: true})
				}
			}
			return true
		})
		return false
	})
	return out
}
