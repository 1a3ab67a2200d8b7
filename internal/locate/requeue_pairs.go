package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// The result and error a return hands back as a pair: through a helper
// that passes them on, set together by one call, or split where the
// error may be nil.

// passedThrough reads a call of a function of the tree's that hands back
// the two arguments it is handed, unchanged, on every return (a wrapper
// every return of a reconcile goes through: return wrap(res, err)): the
// call's result and error arguments. ok is false for any other expression.
func (a *analysis) passedThrough(fn *ssa.Function, info *types.Info, e ast.Expr) (res, errE ast.Expr, ok bool) {
	ce, isCall := ast.Unparen(e).(*ast.CallExpr)
	if !isCall {
		return nil, nil, false
	}
	callee, decl, cinfo := a.ownDecl(fn, info, ce, false)
	if callee == nil || ce.Ellipsis.IsValid() {
		return nil, nil, false
	}
	sig := callee.Signature
	if sig.Results().Len() != 2 || sig.Params().Len() != len(ce.Args) {
		return nil, nil, false
	}
	// Which parameter each result is, the same on every return; and no
	// parameter is assigned to.
	idx := [2]int{-1, -1}
	params := map[types.Object]int{}
	for i := 0; i < sig.Params().Len(); i++ {
		params[sig.Params().At(i)] = i
	}
	ok = true
	ast.Inspect(decl.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, isID := ast.Unparen(l).(*ast.Ident); isID {
					if _, p := params[cinfo.ObjectOf(id)]; p {
						ok = false
					}
				}
			}
		case *ast.ReturnStmt:
			if len(n.Results) != 2 {
				ok = false
				return false
			}
			for i, r := range n.Results {
				id, isID := ast.Unparen(r).(*ast.Ident)
				if !isID {
					ok = false
					return false
				}
				p, isParam := params[cinfo.ObjectOf(id)]
				if !isParam || idx[i] >= 0 && idx[i] != p {
					ok = false
					return false
				}
				idx[i] = p
			}
		}
		return true
	})
	if !ok || idx[0] < 0 || idx[1] < 0 {
		return nil, nil, false
	}
	return ce.Args[idx[0]], ce.Args[idx[1]], true
}

// copiedResultCall is the call whose result's RequeueAfter the expression
// copies (res.RequeueAfter, res defined once by res, err := f(…) in body,
// or res := f(…)); nil for any other expression.
func copiedResultCall(info *types.Info, b *ast.BlockStmt, e ast.Expr) *ast.CallExpr {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if e == nil || !ok || sel.Sel.Name != "RequeueAfter" || b == nil {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v := varOf(info, id)
	if v == nil {
		return nil
	}
	return onlyCallDef(info, b, v)
}

// handedTogether reports whether a returned result variable and error
// variable are both set by one call (_, res, err = f(…), res, err :=
// f(…)): what the call hands back, handed through.
func handedTogether(info *types.Info, b *ast.BlockStmt, res, errE ast.Expr) bool {
	rid, ok1 := ast.Unparen(res).(*ast.Ident)
	eid, ok2 := ast.Unparen(errE).(*ast.Ident)
	if !ok1 || !ok2 || b == nil {
		return false
	}
	rv, ev := varOf(info, rid), varOf(info, eid)
	if rv == nil || ev == nil {
		return false
	}
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
			return !found
		}
		if _, call := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); !call {
			return !found
		}
		var r, e bool
		for _, l := range as.Lhs {
			r = r || assigns(info, l, rv) || defines(info, l, rv)
			e = e || assigns(info, l, ev) || defines(info, l, ev)
		}
		found = found || r && e
		return !found
	})
	return found
}

// mayBeNilError reports whether an error variable a return hands back may
// be nil where it stands, by the values that reach it: a nil, a parameter
// (the caller's error, nil on its success path) or a value whose trail
// ends. A call is not asked here.
func (a *analysis) mayBeNilError(fn *ssa.Function, errE ast.Expr) bool {
	for _, v := range a.errorValues(fn, errE) {
		if v.zero || v.param >= 0 || v.ended() || v.e != nil && v.b != nil && isNilExpr(v.b.info, v.e) {
			return true
		}
	}
	return false
}

// neverFails reports whether an error variable a return hands back is nil
// wherever it stands, by the values that reach it: every one is nil or a
// zero value, followed through the returns of the tree's functions the
// calls that set it may run (a stage's Reconcile, called through an
// interface, whose every implementation returns a nil error). A parameter,
// a value whose trail ends (a library's error, a call not followed) or
// any other expression may be an error.
func (a *analysis) neverFails(fn *ssa.Function, errE ast.Expr) bool {
	vals := a.errorValues(fn, errE)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if v.ended() || v.param >= 0 {
			return false
		}
		if !v.zero && (v.e == nil || v.b == nil || !isNilExpr(v.b.info, v.e)) {
			return false
		}
	}
	return true
}

// errorValues are the values the engine settles an error variable a return
// hands back to in fn; none when errE is no variable or fn has no body.
func (a *analysis) errorValues(fn *ssa.Function, errE ast.Expr) []flowVal {
	if _, ok := ast.Unparen(errE).(*ast.Ident); !ok {
		return nil
	}
	b := a.flowBodyOf(fn)
	if b == nil {
		return nil
	}
	return (&flowEngine{a: a}).values(b, errE)
}

// entryPos is where the entry hands back the site's results: the site
// itself when it is the entry's, else the entry's hop towards it; NoPos
// when the site is not reached through the entry's returns.
func (r *retSite) entryPos(entry *ssa.Function) token.Pos {
	if r.in == entry {
		return r.pos
	}
	if len(r.via) > 0 && r.via[0].in == entry {
		return r.via[0].pos
	}
	return token.NoPos
}

// handedResultCalls returns the calls a returned result variable is the
// first result of (their last an error, others perhaps between), when
// they are its only definitions (a declaration without a value aside: the
// zero result, which asks for no requeue) and nothing changes it after
// (no store into its fields, no pointer to it): the result one of the
// calls made, handed back unchanged; one call, or several, one on each
// path (switch state { case a: res, err = r.doA(…); case b: res, err =
// r.doB(…) }). nil for anything else.
func handedResultCalls(info *types.Info, b *ast.BlockStmt, res ast.Expr) []*ast.CallExpr {
	e := ast.Unparen(res)
	if st, ok := e.(*ast.StarExpr); ok {
		// *res: the result the pointer a call handed back points to.
		e = ast.Unparen(st.X)
	}
	id, ok := e.(*ast.Ident)
	if !ok || b == nil {
		return nil
	}
	v := varOf(info, id)
	if v == nil {
		return nil
	}
	calls := callDefs(info, b, v)
	for _, ce := range calls {
		if sig, ok := info.TypeOf(ce.Fun).(*types.Signature); !ok || sig.Results().Len() < 2 || !isErrorType(sig.Results().At(sig.Results().Len()-1).Type()) {
			return nil
		}
	}
	rooted := func(e ast.Expr) bool {
		w, _ := storePath(info, e)
		return w == v
	}
	changed := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if _, bare := ast.Unparen(l).(*ast.Ident); !bare && rooted(l) {
					changed = true
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND && rooted(x.X) {
				changed = true
			}
		}
		return !changed
	})
	if changed {
		return nil
	}
	return calls
}

// callDefs are the calls a variable is assigned from, as the first of
// their results, when every assignment to it is one (a declaration
// without a value aside); nil otherwise.
func callDefs(info *types.Info, b ast.Node, v *types.Var) []*ast.CallExpr {
	var calls []*ast.CallExpr
	other := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ValueSpec:
			for _, name := range x.Names {
				if info.Defs[name] == v && len(x.Values) > 0 {
					other = true
				}
			}
		case *ast.AssignStmt:
			for i, l := range x.Lhs {
				if lid, ok := ast.Unparen(l).(*ast.Ident); !ok || info.ObjectOf(lid) != v {
					continue
				}
				ce, isCall := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
				if i != 0 || len(x.Rhs) != 1 || !isCall {
					other = true
					continue
				}
				calls = append(calls, ce)
			}
		}
		return !other
	})
	if other {
		return nil
	}
	return calls
}

// reportedPair finds, for a return of fn handing back two of its own
// parameters unchanged (a helper that reports the pass's result and error
// and returns them: return Report(…, res, err)), the caller's return that
// handed fn's results back (the walk's last hop) and the arguments it
// passed for them: fn's return hands back what those arguments hold, as
// the caller's return would with them. ok is false for anything else.
func (a *analysis) reportedPair(fn *ssa.Function, info *types.Info, res, errE ast.Expr, w *retWalk) (caller *ssa.Function, ret *ast.ReturnStmt, argRes, argErr ast.Expr, ok bool) {
	if res == nil || errE == nil {
		return nil, nil, nil, nil, false
	}
	ri, ei := unassignedParam(fn, info, res), unassignedParam(fn, info, errE)
	if ri < 0 || ei < 0 {
		return nil, nil, nil, nil, false
	}
	caller, ret, ce := a.hopCall(fn, w)
	if ce == nil {
		return nil, nil, nil, nil, false
	}
	return caller, ret, ce.Args[ri], ce.Args[ei], true
}

// handedResult completes the value rv of a result fn returns that is, on
// some paths, one of fn's parameters (a branch moved into a helper handed
// the pass's result, returned with an error of its own): what the call of
// the walk's last hop passes for each, in the caller. ok is false when
// there is no such call or an argument is not followed.
func (a *analysis) handedResult(fn *ssa.Function, rv resultValue, w *retWalk) (resultValue, bool) {
	caller, _, ce := a.hopCall(fn, w)
	if ce == nil || len(rv.params) == 0 {
		return rv, false
	}
	out := rv
	out.opaque, out.params = nil, nil
	for _, i := range rv.params {
		if i < 0 || i >= len(ce.Args) {
			return rv, false
		}
		arg, ok := a.shapedValue(caller, ce.Args[i], w.kind, w.shape)
		if !ok {
			return rv, false
		}
		out.requeue = out.requeue || arg.requeue
		out.guard = max(out.guard, arg.guard)
		if out.after == nil && arg.after != nil {
			out.after, out.interval, out.afterIn = arg.after, arg.interval, arg.afterIn
			if out.afterIn == nil {
				out.afterIn = caller
			}
		}
	}
	return out, true
}

// callerHeldResult completes the value rv of a result fn returns from a
// field of one of its parameters (return h.poll, nil, the handler built
// where the caller made it; return o.V, an options value): the engine asks
// what the call of the walk's last hop hands back, in the caller, where
// that parameter is known; caller, ret and ce are that call, its function
// and its return. ok is false when there is no such call or the value is
// not followed there either.
func (a *analysis) callerHeldResult(fn *ssa.Function, rv resultValue, w *retWalk) (out resultValue, caller *ssa.Function, ret *ast.ReturnStmt, ce *ast.CallExpr, ok bool) {
	if !rv.paramField {
		return rv, nil, nil, nil, false
	}
	caller, ret, ce = a.hopCall(fn, w)
	if ce == nil {
		return rv, nil, nil, nil, false
	}
	if out, ok = a.shapedValue(caller, ce, w.kind, w.shape); !ok {
		return rv, nil, nil, nil, false
	}
	if out.after != nil && out.afterIn == nil {
		out.afterIn = caller
	}
	return out, caller, ret, ce, true
}

// handedError is the error a return of fn hands back, errE, as the call
// ce of fn hands it: nil, or the argument of the parameter it is; moved is
// false for any other error (one fn makes itself).
func handedError(fn *ssa.Function, info *types.Info, errE ast.Expr, ce *ast.CallExpr) (ast.Expr, bool) {
	if errE == nil || isNil(info, errE) {
		return nil, true
	}
	if i := unassignedParam(fn, info, errE); i >= 0 && i < len(ce.Args) {
		return ce.Args[i], true
	}
	return nil, false
}

// unassignedParam is the index of the parameter of fn (the receiver
// excluded) that e names, when fn's body never assigns it; else -1.
func unassignedParam(fn *ssa.Function, info *types.Info, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	b := body(fn)
	if !ok || b == nil {
		return -1
	}
	v := varOf(info, id)
	params := fn.Signature.Params()
	for i := range params.Len() {
		if params.At(i) == v && len(assignmentsTo(info, b, v)) == 0 {
			return i
		}
	}
	return -1
}

// hopCall is the call of fn whose results the walk's last hop hands back,
// with the caller and its return: the caller's return of the call, or the
// bare return after the assignment of the call's results to the named
// ones. ce is nil when there is no such call.
func (a *analysis) hopCall(fn *ssa.Function, w *retWalk) (caller *ssa.Function, ret *ast.ReturnStmt, ce *ast.CallExpr) {
	if len(w.via) == 0 {
		return nil, nil, nil
	}
	params := fn.Signature.Params()
	hop := w.via[len(w.via)-1]
	cb := body(hop.in)
	if cb == nil {
		return nil, nil, nil
	}
	cinfo := a.infoAt(cb.Pos())
	calls := func(e ast.Expr) *ast.CallExpr {
		ce, isCall := ast.Unparen(e).(*ast.CallExpr)
		if !isCall || cinfo == nil || len(ce.Args) != params.Len() || ce.Ellipsis.IsValid() || !slices.Contains(a.makeCall(cinfo, ce, hop.in).own, fn) {
			return nil
		}
		return ce
	}
	ast.Inspect(cb, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.End() <= hop.pos && len(n.Rhs) == 1 {
				if c := calls(n.Rhs[0]); c != nil {
					ce = c
				}
			}
		case *ast.ReturnStmt:
			if n.Pos() == hop.pos {
				ret = n
				if len(n.Results) == 1 {
					ce = calls(n.Results[0])
				}
			}
		}
		return ret == nil
	})
	if ret == nil || ce == nil {
		return nil, nil, nil
	}
	return hop.in, ret, ce
}

// readsErrorVar reports whether e reads a variable of type error outside
// the function literals it holds: a call handed the pass's error
// (errors.Join(err, r.patch())) hands it back.
func readsErrorVar(info *types.Info, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && !v.IsField() && isErrorType(v.Type()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// maxNilDepth bounds the calls nilErrorAt follows into.
const maxNilDepth = 4

// nilErrorAt reports whether the error a return of fn hands back is nil
// wherever it stands, by the SSA value that reaches it there (not every
// value the variable is ever given: err = r.rest(…) after an earlier step
// assigned it too): a nil, a phi of such, or the result of a call of one
// of the tree's functions (own) each of whose returns hands back such a
// value in that place, followed a few calls deep, through conversions
// between interfaces of one method set (an error handed back as an
// event).
func nilErrorAt(fn *ssa.Function, s *ast.ReturnStmt, own map[*ssa.Function]bool) bool {
	r := ssaReturnAt(fn, s)
	if r == nil || len(r.Results) == 0 {
		return false
	}
	return alwaysNil(resultOf(r, len(r.Results)-1), own, map[ssa.Value]bool{}, 0)
}

// alwaysNil is nilErrorAt for one SSA value.
func alwaysNil(v ssa.Value, own map[*ssa.Function]bool, seen map[ssa.Value]bool, depth int) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	if w := wrappedError(v); w != nil {
		// errors.Wrap(err, …): nil where err is.
		return alwaysNil(w, own, seen, depth)
	}
	var call *ssa.CallCommon
	index := 0
	switch x := v.(type) {
	case *ssa.Const:
		return x.IsNil()
	case *ssa.ChangeType:
		// error to an interface of the same methods (reconciler.Event)
		return alwaysNil(x.X, own, seen, depth)
	case *ssa.UnOp:
		// A result slot a function with a defer returns through: what
		// each store to it holds, when nothing else takes its address.
		alloc, ok := x.X.(*ssa.Alloc)
		if !ok || x.Op != token.MUL {
			return false
		}
		stored := false
		for _, ref := range *alloc.Referrers() {
			switch i := ref.(type) {
			case *ssa.Store:
				if i.Addr != alloc || !alwaysNil(i.Val, own, seen, depth) {
					return false
				}
				stored = true
			case *ssa.UnOp:
			default:
				return false
			}
		}
		return stored
	case *ssa.Phi:
		for _, e := range x.Edges {
			if !alwaysNil(e, own, seen, depth) {
				return false
			}
		}
		return true
	case *ssa.Extract:
		c, ok := x.Tuple.(*ssa.Call)
		if !ok {
			return false
		}
		call, index = &c.Call, x.Index
	case *ssa.Call:
		call = &x.Call
	default:
		return false
	}
	callee := call.StaticCallee()
	if callee == nil || !own[callee] || depth >= maxNilDepth {
		return false
	}
	returns := 0
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if index >= len(ret.Results) || !alwaysNil(resultOf(ret, index), own, seen, depth+1) {
			return false
		}
		returns++
	}
	return returns > 0
}
