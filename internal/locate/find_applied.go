package locate

import (
	"go/ast"
	"go/types"
	"slices"
)

// heldRegistered follows the reconciler a registration call hands (the
// argument its fact names, and the path below it): heldReconcilers, over
// each of the separate arguments a call hands a variadic parameter whose
// elements the path selects (Start(name, WithOptions(o)) for a layer
// taking opts ...Option).
func (a *analysis) heldRegistered(fl *flowEngine, b *flowBody, c call, arg ast.Expr) held {
	path := reconcilerPath(c.fact)
	args := []ast.Expr{arg}
	if len(path) > 0 && path[0] == elem && !c.expr.Ellipsis.IsValid() && variadicArg(c) {
		args, path = c.expr.Args[c.fact.Arg:], path[1:]
	}
	var out held
	for _, e := range args {
		out.add(a.heldReconcilers(fl, b, e, path, maxWrapDepth))
	}
	return out
}

// variadicArg reports whether a call's fact names the callee's variadic
// parameter.
func variadicArg(c call) bool {
	if c.fn == nil || c.fact.Arg < 0 {
		return false
	}
	sig, ok := c.fn.Type().(*types.Signature)
	return ok && sig.Variadic() && c.fact.Arg == sig.Params().Len()-1
}

// add merges what another value holds into h (h's end first).
func (h *held) add(o held) {
	h.types = appendNew(h.types, o.types...)
	h.funcs = appendNew(h.funcs, o.funcs...)
	for _, x := range o.objects {
		if !slices.ContainsFunc(h.objects, func(y adapted) bool { return y.t == x.t }) {
			h.objects = append(h.objects, x)
		}
	}
	h.params = appendNew(h.params, o.params...)
	h.optionParams = appendNew(h.optionParams, o.optionParams...)
	h.recvPaths = appendNew(h.recvPaths, o.recvPaths...)
	h.appliedParams = appendNew(h.appliedParams, o.appliedParams...)
	if h.end == nil {
		h.end = o.end
	}
}

// appendNew appends the values out does not hold yet.
func appendNew[T comparable](out []T, vals ...T) []T {
	for _, v := range vals {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
