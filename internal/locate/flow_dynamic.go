package locate

import (
	"go/ast"
	"go/types"
)

// The function a dynamic call runs, settled by the value-flow engine: a
// method of one of the tree's own interfaces called on a value the engine
// follows to what makes it (Iface(q).Get(), the queue converted to a
// one-method interface), or a function value it follows to the function
// or method value it holds (via(q.Get)(), handed through a generic
// identity; fn := c.sync, then fn(key)). The call is then read as a
// direct call of that function would be: its role in the knowledge table,
// the shapes of generated code, and for an interface's method the
// functions the call graph says it runs. When the values disagree, or one
// of them is not a function the engine can name (a parameter, a field
// filled elsewhere), the call stays dynamic.

// dynamicCallee is the one function a dynamic call runs, or nil. It is
// asked only of calls of the tree's own interfaces' methods and of
// function values; a query made while another is settling is not asked
// (its answer would be cut short by the cycle guard of the first).
func (a *analysis) dynamicCallee(info *types.Info, e *ast.CallExpr, static *types.Func) *types.Func {
	if static != nil && (!isInterfaceMethod(static) || !a.fileOwn(static.Pos())) {
		return nil
	}
	if static == nil {
		if _, lit := ast.Unparen(e.Fun).(*ast.FuncLit); lit {
			return nil
		}
		if tv, ok := info.Types[e.Fun]; !ok || tv.IsType() || tv.IsBuiltin() {
			return nil
		}
	}
	if fn, ok := a.dynamic[e.Lparen]; ok {
		return fn
	}
	if a.settling {
		return nil
	}
	a.settling = true
	defer func() { a.settling = false }()
	var fn *types.Func
	if b := a.enclosingBody(e); b != nil {
		if static != nil {
			if sel, ok := ast.Unparen(e.Fun).(*ast.SelectorExpr); ok {
				fn = a.receiverMethod(b, sel.X, static)
			}
		} else {
			fn = a.heldFunc(b, e.Fun)
		}
	}
	a.dynamic[e.Lparen] = fn
	return fn
}

// enclosingBody is the engine's body of the own declaration holding e.
func (a *analysis) enclosingBody(e ast.Expr) *flowBody {
	for _, n := range a.path(e.Pos(), e.End()) {
		fd, ok := n.(*ast.FuncDecl)
		if !ok {
			continue
		}
		obj, ok := a.infoAt(fd.Pos()).Defs[fd.Name].(*types.Func)
		if !ok {
			return nil
		}
		return a.ownBody(obj)
	}
	return nil
}

// receiverMethod is the method an interface method call runs: the method
// of that name of every value the receiver may hold, when they all name
// the same one.
func (a *analysis) receiverMethod(b *flowBody, recv ast.Expr, method *types.Func) *types.Func {
	var out *types.Func
	for _, v := range (&flowEngine{a: a}).values(b, recv) {
		t := valueType(v)
		if t == nil {
			return nil
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, method.Pkg(), method.Name())
		fn, ok := obj.(*types.Func)
		if !ok || out != nil && funcKey(out) != funcKey(fn) {
			return nil
		}
		out = fn
	}
	return out
}

// heldFunc is the function a function value holds: the function or method
// value every value the engine settles it to names, when they name the
// same one.
func (a *analysis) heldFunc(b *flowBody, fun ast.Expr) *types.Func {
	var out *types.Func
	for _, v := range (&flowEngine{a: a}).values(b, fun) {
		if v.e == nil || v.param >= 0 || len(v.path) > 0 {
			return nil
		}
		fn := namedFunc(v.b.info, stripConversions(v.b.info, v.e))
		if fn == nil || out != nil && funcKey(out) != funcKey(fn) {
			return nil
		}
		out = fn
	}
	return out
}

// namedFunc is the function an expression names as a value: a function
// (f, pkg.F) or a method value (x.M), not a method expression.
func namedFunc(info *types.Info, e ast.Expr) *types.Func {
	switch x := e.(type) {
	case *ast.Ident:
		fn, _ := info.Uses[x].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel := info.Selections[x]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[x.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr: // an instantiated generic function, F[T]
		return namedFunc(info, x.X)
	case *ast.IndexListExpr:
		return namedFunc(info, x.X)
	}
	return nil
}

// valueType is the static type of what a value the engine settled is:
// the type of its expression (conversions removed; of a call with several
// results, the result the value is), and below it that of the fields its
// path selects.
func valueType(v flowVal) types.Type {
	if v.e == nil || v.b == nil {
		return nil
	}
	t := resultType(v.b.info.TypeOf(stripConversions(v.b.info, v.e)), v.result)
	for _, step := range v.path {
		if t == nil {
			return nil
		}
		if step == elem {
			switch u := deref(t).Underlying().(type) {
			case *types.Slice:
				t = u.Elem()
			case *types.Array:
				t = u.Elem()
			case *types.Map:
				t = u.Elem()
			default:
				return nil
			}
			continue
		}
		// The path names each field it passes, embedded ones included.
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		var next types.Type
		for i := 0; i < st.NumFields(); i++ {
			if st.Field(i).Name() == step {
				next = st.Field(i).Type()
			}
		}
		t = next
	}
	return t
}

// resultType is t, or, when t is the results of a call with several, the
// type of result i (nil when there is no such result).
func resultType(t types.Type, i int) types.Type {
	tu, ok := t.(*types.Tuple)
	if !ok {
		return t
	}
	if i < 0 || i >= tu.Len() {
		return nil
	}
	return tu.At(i).Type()
}
