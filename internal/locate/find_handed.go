package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A worker shared by several controllers calls a sync function it is
// handed: a parameter of its own, which its callers fill, through any
// number of layers and packages, with each controller's function. The
// value handed is followed with the value-flow engine, not by its
// spelling: a method value or a function, a variable holding one, the
// result of an adapter of the tree's (an own function returning a closure
// over the function it takes), or a closure. A closure that only hands the
// key on to another function (an adapter's, or a controller's own literal
// rebuilding its key type from the key's parts) is not the controller's
// entry: the function it hands the key to is. Which parameters of the
// entry carry the key is followed the same way, argument by argument from
// the worker's call, never read off the parameters' names or types.

// maxHandDepth bounds the steps a handed function value is followed
// through (layers, adapters, closures).
const maxHandDepth = 12

// handed is an own function a shared worker's sync call runs, followed
// from a value its callers hand it: the function, the call that hands it
// on first, and which of its parameters (receiver excluded) receive the
// key.
type handed struct {
	entry *ssa.Function
	at    call
	keyed []bool
}

// callBinding says where the parameters of a callee come from while the value
// it returns is followed: the call's arguments, in the caller's body.
type callBinding struct {
	callee, caller *flowBody
	call           *ast.CallExpr
	outer          *callBinding
}

// funcTarget is a function a handed value names: an own function or
// closure, with the callBinding of the body that makes it (a closure reads
// its maker's parameters through it).
type funcTarget struct {
	fn   *ssa.Function
	bind *callBinding
}

// handSearch follows the values handed to one parameter of a worker.
type handSearch struct {
	a  *analysis
	fl *flowEngine
	// seen guards the layers: a function whose parameter is already
	// followed is not followed again.
	seen map[*types.Func]map[string]bool
	// ends are where a trail could not be followed, with why.
	ends []handEnd
	// top is the worker's body; fromTop says a trail reached its callers.
	top     *flowBody
	fromTop bool
}

// handEnd is where the trail of a handed function ends unfollowed, and
// the call of the outermost layer whose argument it follows (the call a
// controller of the tree makes).
type handEnd struct {
	miss
	at *call
}

// handedSyncs returns the own functions the tree's calls hand a worker
// (the function value fun of its body b, a parameter's or read from one),
// each with the parameters that receive what keyed marks of the worker's
// call, and where a trail ended unfollowed. shared says fun comes from
// the worker's callers: false, the worker's sync is its own (a field of
// its receiver, a closure), and the other results are empty.
func (a *analysis) handedSyncs(b *flowBody, fun ast.Expr, keyed []bool) (out []handed, ends []handEnd, shared bool) {
	h := &handSearch{a: a, fl: &flowEngine{a: a}, seen: map[*types.Func]map[string]bool{}, top: b}
	handedOn := false
	for _, f := range h.funcs(b, fun, nil, 0) {
		if f.at == nil {
			// The worker's own, but a closure of it that hands the key
			// on to a function its maker was handed (a library's
			// setter wrapping the handler it takes) runs what the
			// maker's callers hand.
			for _, e := range h.entries(f.target, keyed, 0) {
				if e.at.expr != nil {
					out = append(out, e)
					handedOn = true
				}
			}
			continue
		}
		n := len(h.ends)
		for _, e := range h.entries(f.target, keyed, 0) {
			e.at = *f.at
			out = append(out, e)
		}
		for i := n; i < len(h.ends); i++ {
			at := *f.at
			h.ends[i].at = &at
		}
	}
	if !h.fromTop && !handedOn {
		return nil, nil, false
	}
	return out, h.ends, true
}

// atTarget is a function found at the call of a layer that hands it.
type atTarget struct {
	target funcTarget
	at     call
}

// end records where a trail ends.
func (h *handSearch) end(pos token.Pos, why string) {
	h.ends = append(h.ends, handEnd{miss: miss{at: h.a.site(pos), why: why}})
}

// fromCallers follows what the tree's calls of fn pass at parameter index
// (receiver excluded), or the path below it (a field of an options
// struct).
func (h *handSearch) fromCallers(fn *types.Func, index int, path []string, depth int) []atTarget {
	fn = fn.Origin()
	key := fmt.Sprint(index, path)
	if h.seen[fn][key] {
		return nil
	}
	if h.seen[fn] == nil {
		h.seen[fn] = map[string]bool{}
	}
	h.seen[fn][key] = true
	var out []atTarget
	for _, caller := range h.a.ownFuncs() {
		cobj, ok := h.a.infoAt(caller.Pos()).Defs[caller.Name].(*types.Func)
		if !ok {
			continue
		}
		cb := h.a.ownBody(cobj)
		h.a.allCalls(caller, func(c call) {
			if c.fn == nil || c.fn.Origin() != fn || c.arg(index) == nil || cb == nil {
				return
			}
			ends := len(h.ends)
			for _, t := range h.funcs(cb, c.arg(index), nil, depth+1, path...) {
				out = append(out, atTarget{target: t.target, at: c})
				if t.at != nil {
					out[len(out)-1].at = *t.at
				}
			}
			// A trail ending here, not in an outer layer: this call
			// is the controller's.
			for i := ends; i < len(h.ends); i++ {
				if h.ends[i].at == nil {
					h.ends[i].at = &c
				}
			}
		})
	}
	return out
}

// foundFunc is a function a value names, and the call of an outer layer
// that hands it, when it came through one.
type foundFunc struct {
	target funcTarget
	at     *call
}

// funcs follows a function value, e in body b (whose parameters bind
// gives, when it is a callee whose result is followed), to the own
// functions it may name.
func (h *handSearch) funcs(b *flowBody, e ast.Expr, bind *callBinding, depth int, path ...string) []foundFunc {
	if depth > maxHandDepth {
		h.end(e.Pos(), "the function handed here is followed further than ctrlcmp goes")
		return nil
	}
	e = stripConversions(b.info, e)
	if sf := h.a.funcValue(b.info, e); sf != nil && len(path) == 0 {
		return []foundFunc{{target: funcTarget{fn: sf, bind: bind}}}
	}
	if ce, ok := e.(*ast.CallExpr); ok && len(path) == 0 {
		// An adapter: the function value is what its callee returns,
		// its parameters the call's arguments.
		callees := h.fl.callees(b, ce)
		if len(callees) == 0 {
			h.end(ce.Lparen, "the function handed here is the result of a call ctrlcmp does not follow")
			return nil
		}
		var out []foundFunc
		for _, cb := range callees {
			nb := &callBinding{callee: cb, caller: b, call: ce, outer: bind}
			for _, r := range cb.returnValues(0) {
				if r.index < 0 {
					out = append(out, h.funcs(cb, r.e, nb, depth+1)...)
				}
			}
		}
		return out
	}
	var out []foundFunc
	for _, v := range h.fl.values(b, e, path...) {
		switch {
		case v.param >= 0:
			out = append(out, h.param(v, bind, depth)...)
		case v.e != nil && !v.ended() && (v.b != b || ast.Unparen(v.e) != e || len(path) > 0):
			out = append(out, h.funcs(v.b, v.e, sameDecl(bind, v.b), depth+1)...)
		default:
			why := "the function handed here is a value ctrlcmp does not follow"
			if v.why != "" {
				why += " (" + v.why + ")"
			}
			at := e.Pos()
			if v.ended() {
				at = v.end
			}
			h.end(at, why)
		}
	}
	return out
}

// sameDecl is bind when it binds the parameters of b's declaration, nil
// otherwise.
func sameDecl(bind *callBinding, b *flowBody) *callBinding {
	if bind != nil && bind.callee.decl == b.decl {
		return bind
	}
	return nil
}

// param follows a parameter a function value comes from (or the path
// below it): the argument of the call whose result is followed (bind),
// else what every call of the function passes there.
func (h *handSearch) param(v flowVal, bind *callBinding, depth int) []foundFunc {
	i := v.param
	if bind := sameDecl(bind, v.b); bind != nil {
		args := h.a.callArgs(bind.caller.info, bind.call, bind.callee)
		if i >= len(args) {
			h.end(bind.call.Lparen, "the function handed here is an argument ctrlcmp does not line up")
			return nil
		}
		return h.funcs(bind.caller, args[i], bind.outer, depth+1, v.path...)
	}
	obj, ok := v.b.info.Defs[v.b.decl.Name].(*types.Func)
	if !ok || v.b.lit != nil {
		h.end(v.e.Pos(), "the function handed here is a parameter ctrlcmp does not follow")
		return nil
	}
	if v.b.decl.Recv != nil {
		if i == 0 {
			if out := h.fieldFuncs(v, depth); len(out) > 0 {
				return out
			}
			h.end(v.e.Pos(), "the function handed here is held by the receiver")
			return nil
		}
		i--
	}
	if v.b.decl == h.top.decl {
		h.fromTop = true
	}
	var out []foundFunc
	for _, t := range h.fromCallers(obj, i, v.path, depth+1) {
		at := t.at
		out = append(out, foundFunc{target: t.target, at: &at})
	}
	return out
}

// fieldFuncs follows a function held in a field of the receiver (the
// worker handed c.syncHandler) to the functions the tree's own code stores
// there (c.syncHandler = c.syncWidget, Controller{syncHandler: …}); none
// when it stores none, or one it does not follow.
func (h *handSearch) fieldFuncs(v flowVal, depth int) []foundFunc {
	if len(v.path) != 1 || v.path[0] == elem {
		return nil
	}
	st, ok := deref(v.b.params[0].Type()).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var field *types.Var
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == v.path[0] {
			field = st.Field(i)
		}
	}
	if field == nil {
		return nil
	}
	var out []foundFunc
	open := false
	h.a.fieldStores(field, func(info *types.Info, fd *ast.FuncDecl, value ast.Expr) {
		fn, ok := info.Defs[fd.Name].(*types.Func)
		b := h.a.ownBody(fn)
		if !ok || b == nil {
			open = true
			return
		}
		found := h.funcs(b, value, nil, depth+1)
		open = open || len(found) == 0
		out = append(out, found...)
	})
	if open {
		return nil
	}
	return out
}

// entries are the functions a handed function runs as the controller's
// entry: the function itself, or, for a closure that only hands the key on
// (its body one call, returned or not), the functions that call runs,
// followed as handed values. keyed marks the function's parameters that
// receive the key.
func (h *handSearch) entries(t funcTarget, keyed []bool, depth int) []handed {
	lit, ok := t.fn.Syntax().(*ast.FuncLit)
	if !ok || depth > maxHandDepth {
		return []handed{{entry: t.fn, keyed: keyed}}
	}
	b := h.a.flowBodyOf(t.fn)
	if b == nil {
		return []handed{{entry: t.fn, keyed: keyed}}
	}
	vars := map[*types.Var]bool{}
	for i, id := range paramIdents(lit.Type) {
		if v, ok := b.info.Defs[id].(*types.Var); ok && i < len(keyed) && keyed[i] {
			vars[v] = true
		}
	}
	taint(b.info, lit.Body, vars)
	fwd := forwardCall(lit.Body)
	if fwd == nil {
		fwd = keyedValueCall(b.info, lit, vars)
	}
	if fwd == nil {
		return []handed{{entry: t.fn, keyed: keyed}}
	}
	next := make([]bool, len(fwd.Args))
	any := false
	for i, arg := range fwd.Args {
		next[i] = mentions(b.info, arg, vars)
		any = any || next[i]
	}
	if c := h.a.makeCall(b.info, fwd, nil); !any || c.known {
		return []handed{{entry: t.fn, keyed: keyed}}
	}
	var out []handed
	for _, f := range h.funcs(b, fwd.Fun, sameDecl(t.bind, b), depth+1) {
		for _, e := range h.entries(f.target, next, depth+1) {
			if e.at.expr == nil && f.at != nil {
				e.at = *f.at
			}
			out = append(out, e)
		}
	}
	return out
}

// keyedValueCall is, for a closure that checks something first (that its
// context is live) and then hands the key on, the one call of its body
// that is handed the key (vars) and calls a function value (a parameter or
// a variable the closure captures), or nil when there is not exactly one.
func keyedValueCall(info *types.Info, lit *ast.FuncLit, vars map[*types.Var]bool) *ast.CallExpr {
	var out *ast.CallExpr
	n := 0
	ast.Inspect(lit.Body, func(node ast.Node) bool {
		ce, ok := node.(*ast.CallExpr)
		if !ok || !slices.ContainsFunc(ce.Args, func(arg ast.Expr) bool { return mentions(info, arg, vars) }) {
			return true
		}
		n++
		if id, ok := ast.Unparen(ce.Fun).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok && isFuncType(v.Type()) {
				out = ce
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return out
}

// forwardCall is the call a function's body is made of (`return f(…)` or
// `f(…)`), or nil.
func forwardCall(b *ast.BlockStmt) *ast.CallExpr {
	if b == nil || len(b.List) != 1 {
		return nil
	}
	var e ast.Expr
	switch s := b.List[0].(type) {
	case *ast.ReturnStmt:
		if len(s.Results) == 1 {
			e = s.Results[0]
		}
	case *ast.ExprStmt:
		e = s.X
	}
	ce, _ := ast.Unparen(e).(*ast.CallExpr)
	return ce
}
