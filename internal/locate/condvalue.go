package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// cond resolves the types a condition value holds.
func (r *condReader) cond(e ast.Expr, depth int) []typeSource {
	if e == nil || depth > maxDepth {
		return nil
	}
	info := r.info()
	switch x := stripConversions(info, e).(type) {
	case *ast.CompositeLit:
		var out []typeSource
		truth, statusParam := false, -1
		var typeExpr ast.Expr
		keyedFields(info, x, func(v *types.Var, kv *ast.KeyValueExpr) {
			switch v.Name() {
			case "Type":
				typeExpr = kv.Value
			case "Status":
				truth = isTrue(info, kv.Value)
				if id, ok := stripConversions(info, kv.Value).(*ast.Ident); ok {
					if v := r.varOf(id); v != nil {
						statusParam = r.paramIndex(v)
					}
				}
			}
		})
		for _, t := range r.typeOf(typeExpr, depth+1) {
			t.truth = t.truth || truth
			if !t.truth && statusParam >= 0 {
				t.statusParam = statusParam
			}
			out = append(out, t)
		}
		return out
	case *ast.Ident:
		v := r.varOf(x)
		if v == nil {
			return nil
		}
		if i := r.paramIndex(v); i >= 0 {
			return []typeSource{{param: i, cond: true, statusParam: -1}}
		}
		var out []typeSource
		for _, g := range r.guards[v] {
			if g.block.Pos() <= x.Pos() && x.End() <= g.block.End() {
				return r.typeOf(g.value, depth+1)
			}
		}
		for _, d := range r.defs[v] {
			if d.ranged {
				if isConditionSlice(info.TypeOf(d.expr)) {
					out = append(out, copiedCondition)
				}
				continue
			}
			if d.index >= 0 {
				out = append(out, r.callResult(d.expr, d.index, depth+1)...)
			} else {
				out = append(out, r.cond(d.expr, depth+1)...)
			}
		}
		for _, st := range r.typeStores[v] {
			out = append(out, r.typeOf(st, depth+1)...)
		}
		return out
	case *ast.CallExpr:
		return r.callResult(x, 0, depth+1)
	case *ast.IndexExpr:
		if isConditionSlice(info.TypeOf(x.X)) {
			return []typeSource{copiedCondition}
		}
	}
	return nil
}

// callResult resolves the condition types result index of a call returns.
func (r *condReader) callResult(e ast.Expr, index, depth int) []typeSource {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	c := r.f.a.makeCall(r.info(), ce, nil)
	if c.known {
		return nil
	}
	var out []typeSource
	for _, callee := range r.callees(c) {
		args := callArgs(r.info(), ce, callee)
		for _, t := range r.f.summary(callee).returns[index] {
			out = append(out, r.instantiate(t, args, callee.partial, depth)...)
		}
	}
	return out
}

// instantiate settles a callee's type source with the call's arguments.
func (r *condReader) instantiate(t typeSource, args []ast.Expr, partial bool, depth int) []typeSource {
	var out []typeSource
	if t.statusParam >= 0 && t.statusParam < len(args) && isTrue(r.info(), args[t.statusParam]) {
		t.truth = true
	}
	t.statusParam = -1
	if t.settled() {
		out = []typeSource{t}
	} else if t.param < len(args) {
		if t.cond {
			out = r.cond(args[t.param], depth+1)
		} else {
			out = r.typeOf(args[t.param], depth+1)
		}
		for i := range out {
			out[i].truth = out[i].truth || t.truth
		}
		if len(out) == 0 {
			out = []typeSource{unfollowed}
		}
	}
	for i := range out {
		out[i].partial = out[i].partial || partial || t.partial
	}
	return out
}

// typeOf resolves the values a condition type expression holds.
func (r *condReader) typeOf(e ast.Expr, depth int) []typeSource {
	if e == nil || depth > maxDepth {
		return nil
	}
	info := r.info()
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		if tv.Value.Kind() != constant.String {
			return nil
		}
		inner := stripConversions(info, e)
		return []typeSource{{value: constant.StringVal(tv.Value), k: constOf(info, inner), param: -1, statusParam: -1}}
	}
	switch x := stripConversions(info, e).(type) {
	case *ast.Ident:
		v := r.varOf(x)
		if v == nil {
			return nil
		}
		if i := r.paramIndex(v); i >= 0 {
			return []typeSource{{param: i, statusParam: -1}}
		}
		var out []typeSource
		for _, d := range r.defs[v] {
			if !d.ranged && d.index < 0 {
				out = append(out, r.typeOf(d.expr, depth+1)...)
			}
		}
		return out
	case *ast.SelectorExpr:
		if isConditionTypeField(info, x) {
			return r.cond(x.X, depth+1)
		}
	}
	return nil
}

// callees are the bodies a call may run: the tree's own functions (the
// static callee, or those the call graph gives a dynamic call), or a
// dependency's function handed something that holds conditions (read on
// demand).
func (r *condReader) callees(c call) []*condBody {
	var out []*condBody
	if c.fn != nil {
		if b := r.f.a.ownBody(c.fn.Origin()); b != nil {
			return []*condBody{b}
		}
		if r.f.a.fileOwn(c.fn.Pos()) {
			return nil
		}
		if takesConditions(c.fn) {
			if b := r.f.a.depBody(c.fn.Origin()); b != nil {
				return []*condBody{b}
			}
		}
		return nil
	}
	for _, sf := range c.own {
		if obj, ok := sf.Object().(*types.Func); ok {
			if b := r.f.a.ownBody(obj); b != nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// callArgs lines a call's arguments up with a callee's parameters: the
// receiver of a method call first.
func callArgs(info *types.Info, e *ast.CallExpr, callee *condBody) []ast.Expr {
	hasRecv := callee.decl.Recv != nil
	if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok && hasRecv {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodVal {
			return append([]ast.Expr{sel.X}, e.Args...)
		}
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return e.Args
		}
		return nil
	}
	if hasRecv {
		return nil
	}
	return e.Args
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
