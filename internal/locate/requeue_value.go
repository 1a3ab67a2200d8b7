package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// resultValue is what the engine says a returned reconcile.Result holds.
type resultValue struct {
	requeue bool
	// after is the RequeueAfter expression, in afterIn (nil: the
	// returning function), when it is not known to be zero; interval what
	// names it. A result built by a helper of the tree gives the call
	// itself, in the returning function, so that the trace follows it in.
	after   ast.Expr
	afterIn *ssa.Function
	// madeIn is the helper whose result the interval is made in, when the
	// trace starts at the call of it (after is then that call's value).
	madeIn   *ssa.Function
	interval types.Object
	// opaque is where the trail ends, when it does.
	opaque ast.Expr
	// guard is what the conditions around a store of RequeueAfter into a
	// result variable (result.RequeueAfter = d) test.
	guard guard
	// copied is, for a result literal of the returning function that
	// copies another result's interval (RequeueAfter: inner.RequeueAfter),
	// that selector; copyOpen says a helper's literal copies the interval
	// of a result handed to it, which is not followed (opaque is set).
	copied   ast.Expr
	copyOpen bool
	// why says why the trail ends, where that is more than the
	// expression it ends at (opaque).
	why string
	// paramField says the trail ends at a field of one of the returning
	// function's parameters (return h.poll, nil: a result the receiver
	// holds): what the caller hands it decides.
	paramField bool
	// params are the parameters of the returning function the result
	// is, whole, on some of its paths (a branch moved into a helper
	// handed the pass's result): what the caller passes decides, and
	// the rest of the value is what its other paths hold.
	params []int
	// dropped is where an error variable was set that a helper's return
	// making the interval drops (droppedError).
	dropped token.Pos
}

// resultShape is a type a reconcile function returns to say when its key
// comes back, and the fields that say it: controller-runtime's
// reconcile.Result, or a type of the tree's own that a client-go worker
// reads after its sync (the duration whose value it hands AddAfter, the
// bool after which it adds the key again at once).
type resultShape struct {
	// typ is the type's typeKey; requeue and after are the fieldKeys of
	// its bool and duration fields (requeue "" when there is none).
	typ, requeue, after string
}

// crResult is controller-runtime's reconcile.Result.
var crResult = resultShape{typ: typeResult, requeue: fieldResultRequeue, after: fieldResultRequeueAfter}

// resultValue follows a returned result to the Result literals that reach
// it, and to the stores into the fields of a result variable
// (result.RequeueAfter = d); false when one of its values cannot be
// followed (opaque says where).
func (a *analysis) resultValue(fn *ssa.Function, res ast.Expr, kind *types.Named) (resultValue, bool) {
	return a.shapedValue(fn, res, kind, crResult)
}

// shapedValue is resultValue for a result of the given shape.
func (a *analysis) shapedValue(fn *ssa.Function, res ast.Expr, kind *types.Named, shape resultShape) (resultValue, bool) {
	b := a.flowBodyOf(fn)
	if b == nil {
		return resultValue{opaque: res}, false
	}
	var resVar *types.Var
	if id, ok := ast.Unparen(res).(*ast.Ident); ok {
		resVar = varOf(b.info, id)
	}
	fl := &flowEngine{a: a}
	var out, handed resultValue
	if ce := addressHanded(b, resVar); ce != nil && (len(b.storesAt(resVar, token.NoPos)) > 0 || !a.handedStores(b, resVar, kind, shape, &handed)) {
		// updateRequeueAfter(&result, d), a helper whose stores are not
		// followed, or made beside stores of the body's own (which of
		// them reaches a return is not read): what the result holds is
		// not known.
		return resultValue{opaque: ce, why: handed.why}, false
	}
	if a.resultStores(b, res, kind, shape, &out); out.opaque != nil {
		// A field stored from another result's, made where the trail
		// ends.
		return resultValue{opaque: out.opaque, why: out.why}, false
	}
	for _, v := range fl.values(b, res) {
		switch {
		case v.zero:
			continue
		case v.external && a.resultStores(v.b, v.e, kind, shape, &out):
			// A result variable declared without a value: zero, but for
			// the stores into its fields.
			continue
		case v.param >= 0 && len(v.path) == 0 && v.b == b:
			out.params = append(out.params, b.argParam(v.e))
			continue
		case v.ended() || v.param >= 0:
			return resultValue{opaque: cmpExpr(v.e, res), paramField: v.param >= 0 && len(v.path) > 0 && !v.ended()}, false
		}
		if !shape.isLiteral(v.b.info, v.e) {
			return resultValue{opaque: res}, false
		}
		requeue, after, open := fl.unsetCopies(v.b, v.e, shape)
		if open != nil {
			// A field copied from a result made where the engine does
			// not follow: what the result asks for is not settled.
			return resultValue{opaque: open}, false
		}
		if after == nil && v.b == b {
			// A copy of another result variable of the body (v :=
			// result), whose fields were stored into: what those
			// stores hold.
			if lv := literalVar(b, v.e); lv != nil && lv != resVar && a.varStores(b, lv, token.NoPos, kind, shape, &out) {
				if out.opaque != nil {
					return resultValue{opaque: out.opaque, why: out.why}, false
				}
				out.requeue = out.requeue || requeue
				continue
			}
		}
		if after == nil && v.b != b {
			// A helper's result variable made from the literal, its
			// fields stored into later (result.RequeueAfter = d).
			var stored resultValue
			if lv := literalVar(v.b, v.e); lv != nil && a.varStores(v.b, lv, token.NoPos, kind, shape, &stored) {
				if stored.opaque != nil {
					return resultValue{opaque: stored.opaque}, false
				}
				if stored.after != nil {
					out.requeue = out.requeue || stored.requeue
					out.guard = max(out.guard, stored.guard)
					out.after, out.interval = res, stored.interval
					out.madeIn = a.bySyntax[v.b.decl]
					continue
				}
			}
		}
		out.requeue = out.requeue || requeue
		if after == nil || out.after != nil {
			continue
		}
		if v.b != b {
			if sel, ok := ast.Unparen(after).(*ast.SelectorExpr); ok && typeKey(v.b.info.TypeOf(sel.X)) == shape.typ {
				// A helper copying the interval of a result it is
				// handed: where that result is made is not followed.
				return resultValue{opaque: res, copyOpen: true}, false
			}
			// Built by a helper: the trace starts at the call.
			out.after, out.interval = res, namedBy(v.b.info, after)
			out.madeIn = a.bySyntax[v.b.decl]
			out.dropped = a.droppedAt(v.b.info, v.e)
			continue
		}
		if !a.copiedInterval(fl, b, after, shape, &out) {
			out.after, out.interval = after, namedBy(v.b.info, after)
		}
	}
	if out.opaque != nil {
		return resultValue{opaque: out.opaque, why: out.why}, false
	}
	out.requeue = out.requeue || handed.requeue
	if out.after == nil && handed.after != nil {
		out.after, out.afterIn, out.interval, out.guard = handed.after, handed.afterIn, handed.interval, max(out.guard, handed.guard)
	}
	if out.after == nil && len(out.params) == 0 && !a.carriedInterval(fl, b, res, kind, shape, &out) {
		return resultValue{opaque: res}, false
	}
	if len(out.params) > 0 {
		out.opaque = res
		return out, false
	}
	return out, true
}

// carriedInterval asks the value-flow engine what the interval field of a
// result holds when neither the literals that reach it nor the stores into
// its variable set one: a result handed through a tuple, an options struct
// or a slice to a store made elsewhere (res.RequeueAfter = d, res then
// returned by a helper). The first value that is not zero is the interval,
// traced from where it is made; false when the trail ends where the value
// is not known (a field set by a function the result is handed to).
func (a *analysis) carriedInterval(fl *flowEngine, b *flowBody, res ast.Expr, kind *types.Named, shape resultShape, out *resultValue) bool {
	field := shape.after[strings.LastIndex(shape.after, ".")+1:]
	for _, v := range fl.values(b, res, field) {
		if v.zero || v.external && declaredWithin(v.b, v.e) {
			// A result variable the body declares without a value (a
			// named result never assigned, var res ctrl.Result): its
			// field holds what the stores into it put there, read
			// before, else zero.
			continue
		}
		if v.e == nil || v.param >= 0 {
			return false
		}
		if tv, ok := v.b.info.Types[v.e]; ok && tv.Value != nil && constant.Sign(tv.Value) <= 0 {
			continue
		}
		in := a.bySyntax[v.b.decl]
		if v.b.lit != nil {
			in = a.bySyntax[v.b.lit]
		}
		if in == nil || len(v.path) > 0 {
			// Made where the trace cannot start (a dependency's body,
			// an object's field read below the value): it starts at
			// the result returned.
			out.after, out.interval = res, nil
			return true
		}
		out.after, out.interval, out.afterIn = v.e, namedBy(v.b.info, v.e), in
		out.guard = max(out.guard, a.storeGuard(v.b.info, v.e, kind, in))
		return true
	}
	return true
}

// resultStores adds to out what the stores into the fields of a result
// variable of body b hold (result.Requeue = true, result.RequeueAfter = d,
// in the body or in a closure of it), and the conditions around the store
// of RequeueAfter; it reports whether e names a local variable of type
// reconcile.Result.
func (a *analysis) resultStores(b *flowBody, e ast.Expr, kind *types.Named, shape resultShape, out *resultValue) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || b == nil {
		return false
	}
	return a.varStores(b, varOf(b.info, id), id.Pos(), kind, shape, out)
}

// varStores is resultStores for the local variable v of body b, read at
// pos (NoPos: wherever it is read).
func (a *analysis) varStores(b *flowBody, v *types.Var, pos token.Pos, kind *types.Named, shape resultShape, out *resultValue) bool {
	if v == nil || b.paramIndex(v) >= 0 || typeKey(v.Type()) != shape.typ || v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
		return false
	}
	fl := &flowEngine{a: a}
	var firstAfter ast.Expr
	var firstGuard guard
	for _, st := range b.storesAt(v, pos) {
		if len(st.path) != 1 {
			continue
		}
		tv := b.info.Types[st.value]
		field := shape.typ + "." + st.path[0]
		if field == shape.requeue || field == shape.after {
			switch fl.copiedField(b, st.path[0], st.value, shape) {
			case zeroAlways:
				continue
			case zeroOpen:
				// result.RequeueAfter = res.RequeueAfter, res made
				// where the trail ends.
				out.opaque = st.value
				continue
			}
			if fl.copiesOpenField(b, st.path[0], st.value, shape) {
				// result.RequeueAfter = d, d a local that holds, on
				// some paths, a field of results handed in (the
				// smallest wait of several).
				out.opaque = st.value
				at := fl.a.site(st.value.Pos())
				out.why = fmt.Sprintf("the interval stored at %s:%d is copied from results handed in (the smallest of several, say), made where those are made, which is not followed", at.File, at.Line)
				continue
			}
		}
		switch {
		case shape.requeue != "" && field == shape.requeue:
			out.requeue = out.requeue || tv.Value == nil || constant.BoolVal(tv.Value)
		case field == shape.after:
			if tv.Value != nil && constant.Sign(tv.Value) <= 0 {
				continue
			}
			g := a.storeGuard(b.info, st.value, kind, a.bySyntax[b.decl])
			if firstAfter != nil && g != firstGuard && (g == guardError || firstGuard == guardError) {
				// result.RequeueAfter = retry under a test of an error,
				// result.RequeueAfter = every elsewhere: one return
				// hands back a failure's retry or a success's wait.
				out.opaque = st.value
				one, other := fl.a.site(firstAfter.Pos()), fl.a.site(st.value.Pos())
				out.why = fmt.Sprintf("the interval is stored at %s:%d and at %s:%d, one under a test of an error and one not, and the result is handed back at one return: which one a pass hands back is not followed", one.File, one.Line, other.File, other.Line)
				continue
			}
			if firstAfter == nil {
				firstAfter, firstGuard = st.value, g
			}
			out.guard = max(out.guard, g)
			if out.after == nil && !a.copiedInterval(fl, b, st.value, shape, out) {
				out.after, out.interval = st.value, namedBy(b.info, st.value)
				out.afterIn = a.bySyntax[b.decl]
			}
		}
	}
	return true
}

// literalVar is the local variable of body b that the literal e is
// assigned to (result := ctrl.Result{}), or nil.
func literalVar(b *flowBody, e ast.Expr) *types.Var {
	for v, defs := range b.local().defs {
		for _, d := range defs {
			if d.expr == e {
				return v
			}
		}
	}
	return nil
}

// funcName names a function as a citation does, or a function literal by
// its place.
func (a *analysis) funcName(fn *ssa.Function) string {
	if obj, ok := fn.Object().(*types.Func); ok {
		return cite.ObjectName(obj)
	}
	return "the function literal at " + fileLine(a.funcSite(fn))
}

// funcNames names a set of functions in source order, up to six, saying
// how many more there are.
func funcNames(fns map[*ssa.Function]bool) string {
	var list []*ssa.Function
	for fn := range fns {
		list = append(list, fn)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Pos() < list[j].Pos() })
	var names []string
	for _, fn := range list {
		if obj, ok := fn.Object().(*types.Func); ok {
			names = append(names, cite.ObjectName(obj))
		} else {
			names = append(names, fn.String())
		}
	}
	const most = 6
	if len(names) > most {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:most], ", "), len(names)-most)
	}
	return strings.Join(names, ", ")
}

// cmpExpr is e, or else when e is nil.
func cmpExpr(e, or ast.Expr) ast.Expr {
	if e == nil {
		return or
	}
	return e
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
func isResultLiteral(info *types.Info, e ast.Expr) bool { return crResult.isLiteral(info, e) }

// isLiteral reports whether e is a literal of the shape's type.
func (s resultShape) isLiteral(info *types.Info, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	return ok && typeKey(info.TypeOf(lit)) == s.typ
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
	return crResult.fields(info, e)
}

// fields is resultFields for a literal of the shape's type.
func (s resultShape) fields(info *types.Info, e ast.Expr) (requeue bool, after ast.Expr) {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || typeKey(info.TypeOf(lit)) != s.typ {
		return false, nil
	}
	keyedFields(info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		tv := info.Types[kv.Value]
		switch field := fieldKey(v, info.TypeOf(lit)); {
		case s.requeue != "" && field == s.requeue:
			requeue = tv.Value == nil || constant.BoolVal(tv.Value)
		case field == s.after:
			if tv.Value == nil || constant.Sign(tv.Value) > 0 {
				after = kv.Value
			}
		}
	})
	return requeue, after
}

// declaredWithin reports whether e names a variable that body b declares
// (a local, or a named result of its function), not a parameter, a field
// or a package variable.
func declaredWithin(b *flowBody, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || b == nil {
		return false
	}
	v := varOf(b.info, id)
	if v == nil || b.paramIndex(v) >= 0 {
		return false
	}
	var fn ast.Node = b.decl
	if b.lit != nil {
		fn = b.lit
	}
	return fn != nil && fn.Pos() <= v.Pos() && v.Pos() < fn.End()
}
