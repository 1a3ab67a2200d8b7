package locate

import (
	"go/ast"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// finalizerOrigin is one place a finalizer value is made: a constant, a
// literal, or an expression of the tree's that computes it (fmt.Sprintf of
// a plugin name and a suffix, a prefix joined to a driver's name).
type finalizerOrigin struct {
	konst *types.Const
	// expr is the literal or the computing expression, when konst is
	// nil; value its string when it is a constant one.
	expr     ast.Expr
	value    string
	computed bool
}

// maxFinalizerCallers bounds how many calls up a finalizer that is a
// parameter is followed (a helper handed it by a helper handed it).
const maxFinalizerCallers = 3

// finalizerOrigins asks the value-flow engine where the finalizer value of
// fn is made: through locals, helpers' returns, struct fields and slices
// (for _, f := range finalizers), and, for a parameter, the calls in fns
// that hand it, up to maxFinalizerCallers calls up. The finalizers the
// object already carries (the list an append extends) are no new value.
// ok is false when a value's trail ends anywhere else: the row is then not
// settled, not answered from the values that were followed.
func (a *analysis) finalizerOrigins(fns []*ssa.Function, fn *ssa.Function, value ast.Expr, kind *types.Named) ([]finalizerOrigin, bool) {
	b := a.flowBodyOf(fn)
	if b == nil || value == nil {
		return nil, false
	}
	var out []finalizerOrigin
	tr := &originTrail{fns: fns, kind: kind}
	if !a.originsOf(tr, b, value, nil, 0, &out) || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// originTrail is what a search for a finalizer's origins keeps: the
// functions on the reconcile path, and the primary kind.
type originTrail struct {
	fns  []*ssa.Function
	kind *types.Named
}

// originsOf adds to out where e (in b), or the path below it, is made;
// false when a trail ends where the value is not known.
func (a *analysis) originsOf(tr *originTrail, b *flowBody, e ast.Expr, path []string, hops int, out *[]finalizerOrigin) bool {
	for _, v := range (&flowEngine{a: a}).values(b, e, path...) {
		switch {
		case v.zero:
		case carriedFinalizers(v):
		case v.param >= 0:
			if hops >= maxFinalizerCallers || !a.callerOrigins(tr, v, hops, out) {
				return false
			}
		case v.e == nil || len(v.path) > 0 || v.external:
			return false
		default:
			o, ok := a.madeFinalizer(v)
			if !ok {
				return false
			}
			if ret := a.namingReturn(b, e); o.computed && len(path) == 0 && ret != nil {
				// Computed in the function that names it (return
				// fmt.Sprintf(…)): its return is the site, however the
				// value is made below it.
				o.expr = ret
			}
			*out = append(*out, o)
		}
	}
	return true
}

// namingReturn is, when e (in b) is a call of one function of the tree's
// with a single return of one value (func Finalizer() string { return … }),
// that return's value: the place the finalizer is named. A local defined
// once from such a call names it there too. Nil otherwise.
func (a *analysis) namingReturn(b *flowBody, e ast.Expr) ast.Expr {
	fn := a.bySyntax[b.decl]
	if b.lit != nil {
		fn = a.bySyntax[b.lit]
	}
	if init, ok := localInit(fn, b.info, e); ok {
		e = init
	}
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil
	}
	callees := (&flowEngine{a: a}).callees(b, ce)
	if len(callees) != 1 || callees[0].dep {
		return nil
	}
	var rets []*ast.ReturnStmt
	returnsOf(callees[0].block(), func(r *ast.ReturnStmt) { rets = append(rets, r) })
	if len(rets) != 1 || len(rets[0].Results) != 1 {
		return nil
	}
	return rets[0].Results[0]
}

// madeFinalizer is the origin a value the engine settled to is: the
// constant it names, a constant string (a literal), or a string the tree's
// own code computes there (a call of a formatter, a concatenation).
func (a *analysis) madeFinalizer(v flowVal) (finalizerOrigin, bool) {
	if k := constOf(v.b.info, v.e); k != nil {
		return finalizerOrigin{konst: k}, true
	}
	if s, ok := v.settledString(); ok {
		return finalizerOrigin{expr: v.e, value: s}, true
	}
	t := v.b.info.TypeOf(v.e)
	if t == nil || !types.Identical(t.Underlying(), types.Typ[types.String]) || v.b.dep || !a.fileOwn(v.e.Pos()) {
		return finalizerOrigin{}, false
	}
	switch x := ast.Unparen(v.e).(type) {
	case *ast.BinaryExpr:
		return finalizerOrigin{expr: v.e, computed: true}, true
	case *ast.CallExpr:
		if c := a.makeCall(v.b.info, x, nil); c.known && c.fact.Role == RoleFormat {
			return finalizerOrigin{expr: v.e, computed: true}, true
		}
	}
	return finalizerOrigin{}, false
}

// carriedFinalizers reports whether a value is an element of the list the
// object already carries (append(obj.GetFinalizers(), X), or of
// obj.Finalizers): no finalizer the code makes.
func carriedFinalizers(v flowVal) bool {
	if v.e == nil || len(v.path) == 0 || v.path[len(v.path)-1] != elem {
		return false
	}
	if len(v.path) == 1 {
		return objectFinalizers(v.b.info, v.e)
	}
	return v.path[len(v.path)-2] == "Finalizers" && (isObject(v.b.info.TypeOf(v.e)) || typeKey(v.b.info.TypeOf(v.e)) == typeObjectMeta)
}

// callerOrigins follows a parameter value to the calls on the reconcile
// path of the function that declares it, each argument followed in the
// caller. A call that hands the function objects of other kinds only (a
// finalizer manager shared by several controllers, called for a child)
// sets no finalizer of the primary object.
func (a *analysis) callerOrigins(tr *originTrail, v flowVal, hops int, out *[]finalizerOrigin) bool {
	callee := a.bySyntax[v.b.decl]
	if v.b.lit != nil {
		callee = a.bySyntax[v.b.lit]
	}
	index := v.param
	if v.b.decl.Recv != nil && v.b.lit == nil {
		if index == 0 {
			// A field of the receiver (nsf.finalizerString): every
			// value the tree stores into that field.
			return a.fieldOrigins(tr, v, hops, out)
		}
		index--
	}
	if callee == nil {
		return false
	}
	found := false
	for _, fn := range tr.fns {
		cb := a.flowBodyOf(fn)
		for _, c := range a.callsIn(fn) {
			if !slices.Contains(c.own, callee) || handsOtherKinds(cb, c.expr, tr.kind) {
				continue
			}
			if cb == nil {
				return false
			}
			args, path := []ast.Expr{c.arg(index)}, v.path
			if callee.Signature.Variadic() && index == callee.Signature.Params().Len()-1 && !c.expr.Ellipsis.IsValid() {
				// f(obj, A, B) handing f's finalizers ...string: each
				// argument is an element.
				if len(path) == 0 || path[0] != elem {
					return false
				}
				args, path = c.expr.Args[min(index, len(c.expr.Args)):], path[1:]
			}
			for _, arg := range args {
				if arg == nil || !a.originsOf(tr, cb, arg, path, hops+1, out) {
					return false
				}
			}
			found = true
		}
	}
	return found
}

// handsOtherKinds reports whether a call hands API objects, none of which
// may be of the primary kind.
func handsOtherKinds(b *flowBody, ce *ast.CallExpr, kind *types.Named) bool {
	if b == nil || kind == nil {
		return false
	}
	objects := false
	for _, arg := range ce.Args {
		if t := b.info.TypeOf(arg); t != nil && isObject(t) {
			if ofKind(b.info, arg, kind) {
				return false
			}
			objects = true
		}
	}
	return objects
}

// fieldOrigins follows a field of a method's receiver (v, a parameter
// value with a path) to every value the tree's functions store into that
// field (T{f: x}, t.f = x), each followed where it is stored; false when
// the field is stored nowhere or a stored value is not followed.
func (a *analysis) fieldOrigins(tr *originTrail, v flowVal, hops int, out *[]finalizerOrigin) bool {
	if len(v.path) == 0 || v.path[0] == elem || v.param >= len(v.b.params) {
		return false
	}
	st, ok := deref(v.b.params[v.param].Type()).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	var field *types.Var
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == v.path[0] {
			field = st.Field(i)
		}
	}
	if field == nil || field.Pkg() == nil || !a.fileOwn(field.Pos()) {
		return false
	}
	found, ok := false, true
	a.fieldStores(field, func(info *types.Info, fd *ast.FuncDecl, value ast.Expr) {
		fn, isFunc := info.Defs[fd.Name].(*types.Func)
		b := a.ownBody(fn)
		if !ok || !isFunc || b == nil || !a.originsOf(tr, b, value, v.path[1:], hops+1, out) {
			ok = false
		}
		found = true
	})
	return ok && found
}
