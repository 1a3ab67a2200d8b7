package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The receivers of the methods an interval passes through: bound to a
// method value, made by calls on the reconcile path.

// isMethodValueCall reports whether a call runs a method through a
// function value (a method value made elsewhere and handed on), not a
// selection on its receiver nor a method expression (whose receiver is
// its first argument).
func isMethodValueCall(info *types.Info, x *ast.CallExpr, m *types.Func) bool {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && (s.Kind() == types.MethodVal || s.Kind() == types.MethodExpr) {
			return false
		}
	}
	return true
}

// boundReceiver is the receiver a method value was made with, in the
// function whose body holds it.
type boundReceiver struct {
	in   *ssa.Function
	expr ast.Expr
}

// boundReceivers are the receivers of the method values a call's function
// value may hold (via(next.Sub)): where the value-flow engine says the
// value was made, a selection of a method on a value.
func (t *tracer) boundReceivers(fn *ssa.Function, fun ast.Expr) []boundReceiver {
	fb := t.a.flowBodyOf(fn)
	if fb == nil {
		return nil
	}
	var out []boundReceiver
	for _, v := range (&flowEngine{a: t.a}).values(fb, fun) {
		sel, ok := ast.Unparen(v.e).(*ast.SelectorExpr)
		if !ok || v.b == nil {
			continue
		}
		if s := v.b.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			continue
		}
		var node ast.Node = v.b.decl
		if v.b.lit != nil {
			node = v.b.lit
		}
		if in := t.a.bySyntax[node]; in != nil {
			out = append(out, boundReceiver{in: in, expr: sel.X})
		}
	}
	return out
}

// valueReceiver is the receiver of a call of a method declared on a value
// type (time.Time's Sub, time.Duration's Round): an operand of what the
// method computes. Nil for any other call: a function, a method with a
// pointer receiver or of an interface (a clock's Now), whose receiver is
// a service the value is asked of, not an operand.
func valueReceiver(info *types.Info, x *ast.CallExpr) ast.Expr {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil
	}
	sig, ok := s.Obj().Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	rt := sig.Recv().Type()
	if _, ptr := rt.(*types.Pointer); ptr || types.IsInterface(rt) {
		return nil
	}
	return sel.X
}

// madeReceiver is the receiver of a call of an interface's method where
// the value-flow engine finds it made in the pass, by calls only, which it
// may not follow (a schedule parsed from a field: schedule.Next(now),
// schedule from cron.Parse(spec.schedule)): an operand of what
// the method computes. A receiver held in a field or handed in (a clock)
// is a service the value is asked of: nil.
func (t *tracer) madeReceiver(fn *ssa.Function, info *types.Info, x *ast.CallExpr) ast.Expr {
	sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
		return nil
	}
	fb := t.a.flowBodyOf(fn)
	if fb == nil {
		return nil
	}
	vals := (&flowEngine{a: t.a}).values(fb, sel.X)
	for _, v := range vals {
		if _, call := ast.Unparen(v.e).(*ast.CallExpr); !call || v.zero || v.param >= 0 || v.external {
			return nil
		}
	}
	if len(vals) == 0 {
		return nil
	}
	return sel.X
}

// ofKind narrows the functions a dynamic call may run (a getter called
// through an interface) to the methods of the primary type, when some
// are.
func (t *tracer) ofKind(own []*ssa.Function) []*ssa.Function {
	if len(own) < 2 || t.kind == nil {
		return own
	}
	var out []*ssa.Function
	for _, f := range own {
		if r := f.Signature.Recv(); r != nil {
			if n, ok := deref(r.Type()).(*types.Named); ok && types.Identical(n.Origin(), t.kind.Origin()) {
				out = append(out, f)
			}
		}
	}
	if len(out) == 0 {
		return own
	}
	return out
}
