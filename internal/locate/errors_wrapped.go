package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Errors handed back through a wrapper that keeps nil nil: errors.Wrap and
// its kind (the knowledge table), and the same written in the tree
// (func wrap(err error) error { if err == nil { return nil }; return
// myError{err} }). A return of the wrapper's error is the return of the
// error it wraps: it fails where that error is set and succeeds where it
// is nil.

// errWrapDepth bounds how many wrappers deep a wrapper's error is followed.
const errWrapDepth = 4

// wrappedParam is the index, among its signature's parameters, of the
// error parameter a function hands back wrapped, keeping nil nil, or -1.
// The function hands back one error, and each of its returns hands back
// the parameter itself, nil where a test found the parameter nil, or,
// where a test found it set, an error that cannot be nil: a value made
// into the interface, a new error (the knowledge table), or the parameter
// wrapped again.
func wrappedParam(fn *ssa.Function, depth int) int {
	if fn == nil || fn.Blocks == nil || depth > errWrapDepth {
		return -1
	}
	sig := fn.Signature
	if sig.Results().Len() != 1 || !isErrorType(sig.Results().At(0).Type()) {
		return -1
	}
	recv := 0
	if sig.Recv() != nil {
		recv = 1
	}
	if len(fn.Params) != sig.Params().Len()+recv {
		return -1
	}
	for i, p := range fn.Params[recv:] {
		if isErrorType(p.Type()) && wrapsParam(fn, p, depth) {
			return i
		}
	}
	return -1
}

// wrapsParam reports whether each return of fn hands back p (itself, or
// through another such wrapper), nil where p was found nil, or an error
// that cannot be nil where p was found set; and one of them hands back an
// error.
func wrapsParam(fn *ssa.Function, p *ssa.Parameter, depth int) bool {
	handsBack := false
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		r, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		v := returnedValue(r)
		if k, isConst := v.(*ssa.Const); isConst && k.IsNil() {
			if nilTestAbove(r, p) != testedNil {
				return false
			}
			continue
		}
		if v != p && wrappedErrorIn(v, depth+1) != p && (nilTestAbove(r, p) != testedSet || !setError(v, p, depth)) {
			return false
		}
		handsBack = true
	}
	return handsBack
}

// setError reports whether v, an error handed back where p was found set,
// cannot be nil: a value made into the interface, a new error, or p
// wrapped.
func setError(v ssa.Value, p *ssa.Parameter, depth int) bool {
	switch v := v.(type) {
	case *ssa.MakeInterface:
		return true
	case *ssa.Call:
		if fn := v.Call.StaticCallee(); fn != nil {
			if obj, ok := fn.Object().(*types.Func); ok && knowledge[funcKey(obj)].Role == RoleNewError {
				return true
			}
		}
		return wrappedErrorIn(v, depth+1) == p
	}
	return false
}

// wrappedErrorIn is wrappedError, depth wrappers deep.
func wrappedErrorIn(v ssa.Value, depth int) ssa.Value {
	c, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	fn := c.Call.StaticCallee()
	if fn == nil {
		return nil
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		if f := knowledge[funcKey(obj)]; f.Role == RoleWrapError {
			if f.Arg >= len(c.Call.Args) {
				return nil
			}
			return c.Call.Args[f.Arg]
		}
	}
	i := wrappedParam(fn, depth)
	if i < 0 {
		return nil
	}
	if fn.Signature.Recv() != nil {
		i++ // a static method call's first argument is its receiver
	}
	if i >= len(c.Call.Args) {
		return nil
	}
	return c.Call.Args[i]
}

// unwrapError is the error expression e wraps when e is a call of a
// wrapper that keeps nil nil and does nothing else: one of the knowledge
// table, or a function of the tree that only computes (pureFunc) and is
// such a wrapper (wrappedParam); e itself otherwise.
func (a *analysis) unwrapError(fn *ssa.Function, info *types.Info, e ast.Expr) ast.Expr {
	for range errWrapDepth {
		ce, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || ce.Ellipsis.IsValid() {
			return e
		}
		i := -1
		c := a.makeCall(info, ce, fn)
		switch {
		case c.known:
			if c.fact.Role == RoleWrapError {
				i = c.fact.Arg
			}
		case len(c.own) == 1 && a.pureFunc(c.own[0], map[*ssa.Function]bool{}):
			i = wrappedParam(c.own[0], 0)
		}
		if i < 0 || i >= len(ce.Args) {
			return e
		}
		e = ce.Args[i]
	}
	return e
}
