package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Results copied from other results: an interval or a requeue bool set,
// in a literal or by a store into a result variable, from the same field
// of another result (inner.RequeueAfter), followed to where that result
// is made.

// unsetCopies is shape.fields of a result literal in b, but for a field
// copied from the same field of a result of the tree's own type
// (RequeueAfter: res.RequeueAfter, res from res, err := r.run(…) or
// handed in): zero wherever the engine finds res made, the field asks for
// nothing; made where the engine's trail ends (a parameter), what it asks
// for is not followed (open).
func (fl *flowEngine) unsetCopies(b *flowBody, e ast.Expr, shape resultShape) (requeue bool, after, open ast.Expr) {
	requeue, after = shape.fields(b.info, e)
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || !requeue && after == nil || b.decl == nil {
		return requeue, after, nil
	}
	keyedFields(b.info, lit, func(v *types.Var, kv *ast.KeyValueExpr) {
		field := fieldKey(v, b.info.TypeOf(lit))
		if field != shape.after && field != shape.requeue {
			return
		}
		switch fl.copiedField(b, v.Name(), kv.Value, shape) {
		case zeroAlways:
			if field == shape.after {
				after = nil
			} else {
				requeue = false
			}
		case zeroOpen:
			open = kv.Value
		}
	})
	return requeue, after, open
}

// copiedField is, for a value set into the result's field name in b (in a
// literal, or stored), whether it copies the same field of another
// result-like value (not the Result type, not the receiver's
// configuration): a result a call hands back (res, err := r.run(…)) or
// one the function is handed, whose field is zero wherever it is made
// (zeroAlways), made where the engine's trail ends (zeroOpen); zeroNot
// when it copies no such field.
func (fl *flowEngine) copiedField(b *flowBody, name string, value ast.Expr, shape resultShape) int {
	if b.decl == nil || b.info.Types[value].Value != nil {
		return zeroNot
	}
	sel, ok := ast.Unparen(value).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || typeKey(b.info.TypeOf(sel.X)) == shape.typ {
		return zeroNot
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || varOf(b.info, id) == nil {
		return zeroNot
	}
	// Not a value a type switch binds (an error carrying its own wait).
	x := varOf(b.info, id)
	receiver := b.decl.Recv != nil && b.lit == nil && b.paramIndex(x) == 0
	if receiver || b.paramIndex(x) < 0 && onlyCallDef(b.info, b.decl.Body, x) == nil {
		return zeroNot
	}
	return fl.fieldZero(b, sel)
}

// Whether a field a selection reads is zero wherever its value is made.
const (
	zeroAlways = iota
	zeroNot
	zeroOpen
)

// fieldZero reads sel (x.F) through the values the engine finds for x:
// zeroAlways when each is a zero value or a literal that leaves F unset or
// sets it to a zero constant, zeroOpen when a trail ends, zeroNot else.
func (fl *flowEngine) fieldZero(b *flowBody, sel *ast.SelectorExpr) int {
	vals := fl.values(b, sel.X)
	if len(vals) == 0 {
		return zeroOpen
	}
	out := zeroAlways
	for _, v := range vals {
		if v.zero {
			continue
		}
		if v.ended() || v.param >= 0 || v.b == nil {
			return zeroOpen
		}
		e := ast.Unparen(v.e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			e = ast.Unparen(u.X)
		}
		lit, ok := e.(*ast.CompositeLit)
		if !ok {
			return zeroOpen
		}
		keyedFields(v.b.info, lit, func(f *types.Var, kv *ast.KeyValueExpr) {
			if f.Name() != sel.Sel.Name {
				return
			}
			k := v.b.info.Types[kv.Value].Value
			if k == nil || k.Kind() == constant.Bool && constant.BoolVal(k) || k.Kind() != constant.Bool && constant.Sign(k) != 0 {
				out = zeroNot
			}
		})
	}
	return out
}

// copiedInterval reports whether the interval after, in body b, is copied
// from another result's field (RequeueAfter: inner.RequeueAfter in a
// literal, or result.RequeueAfter = inner.RequeueAfter): then the value is
// what that result holds, its first value that is not zero, and copied
// names the field read.
func (a *analysis) copiedInterval(fl *flowEngine, b *flowBody, after ast.Expr, shape resultShape, out *resultValue) bool {
	sel, ok := ast.Unparen(after).(*ast.SelectorExpr)
	if !ok || typeKey(b.info.TypeOf(sel.X)) != shape.typ {
		return false
	}
	out.after, out.copied = nil, after
	for _, w := range fl.values(b, after) {
		if w.zero || w.e == nil {
			continue
		}
		if tv, ok := w.b.info.Types[w.e]; ok && tv.Value != nil && constant.Sign(tv.Value) <= 0 {
			continue
		}
		out.after, out.interval = w.e, namedBy(w.b.info, w.e)
		out.afterIn = a.bySyntax[w.b.decl]
		break
	}
	return true
}

// copiesOpenField reports whether value, stored into a result's field name,
// is a local that holds on some path the same field of another result
// (min = r.RequeueAfter, over the results a helper is handed) whose value
// the engine cannot follow to where it is made: a parameter's, or a field
// whose trail ends.
func (fl *flowEngine) copiesOpenField(b *flowBody, name string, value ast.Expr, shape resultShape) bool {
	if _, ok := ast.Unparen(value).(*ast.Ident); !ok || b.info.Types[value].Value != nil {
		return false
	}
	for _, v := range fl.values(b, value) {
		if v.b == nil || v.e == nil {
			continue
		}
		if v.param >= 0 && len(v.path) > 0 && v.path[len(v.path)-1] == name && holdsResults(v.b.info.TypeOf(v.e), shape) {
			return true
		}
		sel, ok := ast.Unparen(v.e).(*ast.SelectorExpr)
		if ok && sel.Sel.Name == name && typeKey(v.b.info.TypeOf(sel.X)) == shape.typ && fl.fieldZero(v.b, sel) == zeroOpen {
			return true
		}
	}
	return false
}

// holdsResults reports whether t is a result of the shape, or a slice or
// array of them.
func holdsResults(t types.Type, shape resultShape) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		t = u.Elem()
	case *types.Array:
		t = u.Elem()
	}
	return typeKey(t) == shape.typ
}
