package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// cond resolves the types a condition value holds: what flows into its
// Type field, and whether its Status is True (or which parameter holds
// it).
func (r *condReader) cond(e ast.Expr) []typeSource {
	return r.condAt(e, nil)
}

// condElems resolves the types the conditions of a list hold.
func (r *condReader) condElems(e ast.Expr) []typeSource {
	return r.condAt(e, []string{elem})
}

// condAt resolves the types the condition at the path below e holds.
func (r *condReader) condAt(e ast.Expr, below []string) []typeSource {
	ts, _ := r.condAtOf(e, below)
	return ts
}

// condAtOf is condAt, and whether the engine found any value at all.
func (r *condReader) condAtOf(e ast.Expr, below []string) ([]typeSource, bool) {
	if e == nil {
		return nil, false
	}
	var out []typeSource
	found, guarded := false, false
	if id, ok := stripConversions(r.info(), e).(*ast.Ident); ok && len(below) == 0 {
		if v := varOf(r.info(), id); v != nil {
			for _, g := range r.b.local().typeTests[v] {
				if g.block.Pos() <= id.Pos() && id.End() <= g.block.End() {
					// Within the block the condition's type is the
					// value it was tested against, when that value
					// names one or is a parameter (not when it is read
					// from a list).
					if ts := r.typeOf(g.value); slices.ContainsFunc(ts, func(t typeSource) bool { return t.followed() || !t.settled() && len(t.path) == 0 }) {
						if r.copiedUnchanged(v, id, g.block) {
							return []typeSource{copiedCondition}, true
						}
						out, found, guarded = ts, true, true
						break
					}
				}
			}
		}
	}
	truth, statusParam := false, -1
	for _, v := range r.f.fl.values(r.b, e, slices.Concat(below, []string{"Status"})...) {
		switch {
		case v.param >= 0 && v.b == r.b:
			if len(v.path) == 0 {
				statusParam = v.param
			}
		case v.e != nil && isTrue(v.b.info, v.e):
			truth = true
		}
	}
	if !guarded {
		out, found = r.typesOf(e, slices.Concat(below, []string{"Type"}))
	}
	for i := range out {
		out[i].truth = out[i].truth || truth
		if !out[i].truth && statusParam >= 0 {
			out[i].statusParam = statusParam
		}
	}
	return out, found
}

// typeOf resolves the values a condition type expression holds.
func (r *condReader) typeOf(e ast.Expr) []typeSource {
	return r.types(e, nil)
}

// types asks the engine what the path below e holds, as type sources: a
// string constant is a type; a parameter of the body is settled by the
// caller; a value read from an object is copied; anything else is where
// the trail ends.
func (r *condReader) types(e ast.Expr, path []string) []typeSource {
	ts, _ := r.typesOf(e, path)
	return ts
}

// typesOf is types, and whether the engine found any value at all (a zero
// value, an empty list, sets no type but is no lost trail either).
func (r *condReader) typesOf(e ast.Expr, path []string) ([]typeSource, bool) {
	if e == nil {
		return nil, false
	}
	var out []typeSource
	vals := r.f.fl.values(r.b, e, path...)
	for _, v := range vals {
		switch {
		case v.zero:
		case v.param >= 0 && v.b == r.b:
			out = append(out, typeSource{param: v.param, path: v.path, statusParam: -1})
		case v.external && len(v.path) > 0 && v.path[len(v.path)-1] != "Type":
			// A field of an object that is no condition's type (a
			// state kept in Status.Phase): the types it holds are the
			// values stored into it elsewhere, which are not followed.
			t := unfollowed
			t.end, t.why = v.end, "a field of an object ("+strings.Join(v.path, ".")+"), which holds what is stored into it elsewhere"
			out = append(out, t)
		case v.external && r.f.otherKindStatus(v):
			// Another kind's conditions, copied: their types are what
			// that kind's own controller sets, not followed here.
			t := unfollowed
			t.foreign = deref(v.b.info.TypeOf(v.e)).(*types.Named).Obj().Name()
			t.end = v.end
			out = append(out, t)
		case v.external, v.ended() && isConditionsGetter(v.b.info, v.e):
			out = append(out, copiedCondition)
		default:
			if s, ok := v.settledString(); ok {
				t := typeSource{value: s, param: -1, statusParam: -1, partial: v.b.partial}
				if k := constOf(v.b.info, stripConversions(v.b.info, v.e)); k != nil {
					t.k = k
				}
				out = append(out, t)
				continue
			}
			if s, pv, ok := r.f.a.fixedString(v.b.info, v.e); ok {
				out = append(out, typeSource{value: s, k: pv, param: -1, statusParam: -1, partial: v.b.partial})
				continue
			}
			t := unfollowed
			t.end, t.why = v.end, v.why
			out = append(out, t)
		}
	}
	return out, len(vals) > 0
}

// isConditionsGetter reports whether e calls a method without arguments
// that hands over a list of conditions (obj.GetConditions()): what it
// holds is an object's list, copied.
func isConditionsGetter(info *types.Info, e ast.Expr) bool {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(ce.Args) > 0 || !isConditionSlice(info.TypeOf(ce)) {
		return false
	}
	sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr)
	return ok && info.Selections[sel] != nil && info.Selections[sel].Kind() == types.MethodVal
}

// instantiate settles a callee's type source with the call's arguments.
// variadic is the index of the callee's variadic parameter when the call
// hands it separate arguments (f(a, b), not f(s...)), else -1: an element
// of that parameter is one of those arguments.
func (r *condReader) instantiate(t typeSource, args []ast.Expr, partial bool, variadic int) []typeSource {
	var out []typeSource
	if t.statusParam >= 0 && t.statusParam < len(args) && isTrue(r.info(), args[t.statusParam]) {
		t.truth = true
	}
	t.statusParam = -1
	if t.settled() {
		out = []typeSource{t}
	} else if variadic >= 0 && t.param == variadic && len(t.path) > 0 && t.path[0] == elem {
		// No argument for it sets nothing.
		found := variadic >= len(args)
		for _, arg := range args[min(variadic, len(args)):] {
			ts, ok := r.instantiateArg(t.path[1:], arg)
			out, found = append(out, ts...), found || ok
		}
		for i := range out {
			out[i].truth = out[i].truth || t.truth
		}
		if len(out) == 0 && !found {
			out = []typeSource{unfollowed}
		}
	} else if t.param < len(args) {
		var found bool
		out, found = r.instantiateArg(t.path, args[t.param])
		for i := range out {
			out[i].truth = out[i].truth || t.truth
		}
		if len(out) == 0 && !found {
			out = []typeSource{unfollowed}
		}
	}
	for i := range out {
		out[i].partial = out[i].partial || partial || t.partial
	}
	return out
}

// instantiateArg resolves what a path of a type source selects below one
// argument.
func (r *condReader) instantiateArg(path []string, arg ast.Expr) ([]typeSource, bool) {
	if len(path) > 0 && path[len(path)-1] == "Type" {
		return r.condAtOf(arg, path[:len(path)-1])
	}
	return r.typesOf(arg, path)
}

// variadicAt is the index, among a call's arguments lined up with the
// callee's parameters, of the callee's variadic parameter when the call
// hands it separate arguments; -1 otherwise.
func variadicAt(callee *flowBody, e *ast.CallExpr, args []ast.Expr) int {
	ft := callee.funcType()
	if e.Ellipsis.IsValid() || ft.Params == nil || len(ft.Params.List) == 0 {
		return -1
	}
	if _, ok := ft.Params.List[len(ft.Params.List)-1].Type.(*ast.Ellipsis); !ok {
		return -1
	}
	i := len(callee.params) - 1
	if i < 0 || i > len(args) {
		return -1
	}
	return i
}

// isTrue reports whether e is the constant "True" (metav1.ConditionTrue).
func isTrue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == conditionTrue
}

// stripConversions removes parentheses, type conversions, & and * around
// e.
func stripConversions(info *types.Info, e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = u.X
			continue
		}
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
			continue
		}
		c, ok := e.(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[c.Fun]; !ok || !tv.IsType() {
			return e
		}
		e = c.Args[0]
	}
}

// copiedUnchanged reports whether the condition variable v, read at id
// within the block a test of its type guards, holds only conditions
// copied from an object's list (one the body read, or an API object it is
// handed), and the block stores nothing into it: the test picks an
// existing condition to keep (`if c.Type == "Ready" { conds =
// append(conds, c) }`), which sets no type.
func (r *condReader) copiedUnchanged(v *types.Var, id *ast.Ident, block *ast.BlockStmt) bool {
	for _, st := range r.b.local().stores[v] {
		if block.Pos() <= st.value.Pos() && st.value.End() <= block.End() {
			return false
		}
	}
	ts, _ := r.typesOf(id, []string{"Type"})
	return len(ts) > 0 && !slices.ContainsFunc(ts, func(t typeSource) bool {
		return !t.copied && !(t.param >= 0 && len(t.path) > 1 && isObject(r.b.params[t.param].Type()))
	})
}

// otherKindStatus reports whether v is read from the status of an API
// object of a kind other than the primary one (a child's, a peer's).
func (f *condFlow) otherKindStatus(v flowVal) bool {
	if f.kind == nil || v.e == nil || len(v.path) == 0 || v.path[0] != statusField {
		return false
	}
	n, ok := deref(v.b.info.TypeOf(v.e)).(*types.Named)
	if !ok || types.Identical(n, f.kind) || !isObject(n) {
		return false
	}
	_, isStruct := n.Underlying().(*types.Struct)
	return isStruct
}
