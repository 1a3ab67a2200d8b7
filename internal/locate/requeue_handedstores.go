package locate

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
)

// A result variable handed by address to a helper of the tree's that
// stores into its fields (updateRequeueAfter(&result, d), whose body sets
// result.RequeueAfter = d): the stores are the helper's, each value the
// helper's own or, for one of its parameters, what the call hands it.

// handedStores adds to out what the calls of body b that are handed the
// address of the result variable v store into its fields. ok is false when
// a call is not one function of the tree's whose parameter only has its
// fields stored into, or when more than one call stores an interval that
// is not zero: which of them a return hands back is not read.
func (a *analysis) handedStores(b *flowBody, v *types.Var, kind *types.Named, shape resultShape, out *resultValue) bool {
	fl := &flowEngine{a: a}
	fn := a.bySyntax[b.decl]
	if b.lit != nil {
		fn = a.bySyntax[b.lit]
	}
	ok := true
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		ce, isCall := n.(*ast.CallExpr)
		if !isCall || !ok {
			return ok
		}
		at := -1
		for i, arg := range ce.Args {
			if u, isAddr := ast.Unparen(arg).(*ast.UnaryExpr); isAddr && u.Op.String() == "&" {
				if id, isID := ast.Unparen(u.X).(*ast.Ident); isID && varOf(b.info, id) == v {
					at = i
				}
			}
		}
		if at < 0 {
			return true
		}
		callees := fl.callees(b, ce)
		if len(callees) != 1 || callees[0].dep || callees[0].lit != nil {
			ok = false
			return false
		}
		cb := callees[0]
		k := at
		if cb.decl.Recv != nil {
			k++
		}
		if k >= len(cb.params) || !a.onlyFieldsStored(cb, cb.params[k], shape) {
			ok = false
			return false
		}
		for _, st := range cb.local().stores[cb.params[k]] {
			field := shape.typ + "." + st.path[0]
			tv := cb.info.Types[st.value]
			switch {
			case shape.requeue != "" && field == shape.requeue:
				out.requeue = out.requeue || tv.Value == nil || constant.BoolVal(tv.Value)
			case field == shape.after:
				if tv.Value != nil && constant.Sign(tv.Value) <= 0 {
					continue
				}
				if out.after != nil {
					// Two calls store an interval (a wait after a
					// failure, the schedule's next run): which one a
					// return hands back is not read.
					at := a.site(ce.Pos())
					out.why = fmt.Sprintf("more than one call stores an interval into the result by address (%s, again at %s:%d), and which of them reaches the return is not read", a.exprText(ce.Fun), at.File, at.Line)
					ok = false
					return false
				}
				d, in, info := st.value, a.bySyntax[cb.decl], cb.info
				if p := cb.argParam(st.value); p >= 0 && p < len(ce.Args) {
					// The helper's parameter: what the call hands it.
					d, in, info = ce.Args[p], fn, b.info
					if tv := b.info.Types[d]; tv.Value != nil && constant.Sign(tv.Value) <= 0 {
						continue
					}
				}
				out.after, out.afterIn, out.interval = d, in, namedBy(info, d)
				out.guard = max(out.guard, a.storeGuard(info, d, kind, in))
			}
		}
		return true
	})
	return ok
}

// onlyFieldsStored reports whether the pointer parameter p of body b is
// used only to read or store the shape's fields (p.RequeueAfter = d, a
// test of p.RequeueAfter): never handed on, copied whole or stored
// through whole.
func (a *analysis) onlyFieldsStored(b *flowBody, p *types.Var, shape resultShape) bool {
	if _, ptr := p.Type().(*types.Pointer); !ptr || typeKey(p.Type()) != shape.typ {
		return false
	}
	for _, st := range b.local().stores[p] {
		if len(st.path) != 1 {
			return false
		}
	}
	ok := true
	var stack []ast.Node
	ast.Inspect(b.decl.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		if id, isID := n.(*ast.Ident); isID && b.info.Uses[id] == p {
			if sel, isSel := stack[len(stack)-1].(*ast.SelectorExpr); !isSel || sel.X != id {
				ok = false // handed on, copied or stored through whole
			}
		}
		stack = append(stack, n)
		return ok
	})
	return ok
}
