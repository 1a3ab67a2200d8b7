package locate

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Finalizers changed by a JSON patch: an operation built as a literal of
// the tree's own type (or a map), its path "/metadata/finalizers" (or an
// element of it, written as a constant or formatted from one, in place or
// through a local variable defined once), its op
// "add", "remove" or "replace", and its value the finalizer (or a list of
// them). It is the primary object's only when the patch it goes into is
// sent, in the same function, by a call that is handed an object of the
// primary type (or a parameter its callers hand one): a patch of a
// child's finalizers is not. A function that returns the patch (a patch
// builder: FinalizerAddPatch(finalizers, name) returning the marshalled
// operations) hands it to its callers, where it is sent. A "replace" whose
// value is the object's own list (obj.GetFinalizers()) changes nothing of
// it: it sends the change made to that list before, which is the site.

// finalizersPath is the JSON pointer of an object's finalizer list.
const finalizersPath = "/metadata/finalizers"

// patchOps lists the finalizer changes of fn's JSON patch literals that are
// sent with an object of the primary type.
func (a *analysis) patchOps(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, kind *types.Named) (adds, removes []finOp) {
	if kind == nil {
		return nil, nil
	}
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CompositeLit:
			op, value, ok := a.finalizerPatch(info, n)
			if !ok || !a.sentWithKind(fn, info, b, n, kind) {
				return true
			}
			f := finOp{pos: n.Pos(), info: info, in: fn}
			switch {
			case op == "replace" && value != nil && objectFinalizers(info, value):
				// The object's own list as it stands: what a change
				// made to it before (controllerutil.RemoveFinalizer)
				// left, sent; that change is the add or the removal.
			case op == "add":
				f.value = patchValue(value)
				adds = append(adds, f)
			case op == "remove" || op == "replace":
				removes = append(removes, f)
			}
			return false
		}
		return true
	})
	flowedAdds, flowedRemoves := a.flowedPatchOps(fn, info, b, kind)
	return append(adds, flowedAdds...), append(removes, flowedRemoves...)
}

// flowedPatchOps are the finalizer changes of JSON patch literals made
// outside fn (a helper returns the operations, an options struct carries
// them) that fn hands to a call that is handed an object of the primary
// type, or returns one: the value-flow engine follows each other argument
// of such a call to the literals it may hold. Each is cited at the call,
// where the patch is sent.
func (a *analysis) flowedPatchOps(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, kind *types.Named) (adds, removes []finOp) {
	fb := a.flowBodyOf(fn)
	if fb == nil {
		return nil, nil
	}
	fl := &flowEngine{a: a}
	for _, c := range a.callsIn(fn) {
		if !sendsPrimary(info, c, kind) {
			continue
		}
		added, removed := false, false
		for _, arg := range c.expr.Args {
			t := info.TypeOf(arg)
			if t == nil || isKind(t, kind) {
				continue
			}
			var vals []flowVal
			switch deref(t).Underlying().(type) {
			case *types.Struct, *types.Map:
				vals = fl.values(fb, arg)
			case *types.Slice, *types.Array:
				vals = append(fl.values(fb, arg), fl.values(fb, arg, elem)...)
			default:
				continue // no patch operation: a context, a name, an interface
			}
			for _, v := range vals {
				lit, ok := ast.Unparen(v.e).(*ast.CompositeLit)
				if !ok || v.b == nil || b.Pos() <= lit.Pos() && lit.End() <= b.End() {
					continue // no literal, or one of fn's own (patchOps reads those)
				}
				op, value, ok := a.finalizerPatch(v.b.info, lit)
				if !ok {
					continue
				}
				switch {
				case op == "replace" && value != nil && objectFinalizers(v.b.info, value):
					// The object's own list, sent (patchOps).
				case op == "add" && !added:
					added = true
					adds = append(adds, finOp{pos: c.expr.Lparen, value: patchValue(value), info: v.b.info, in: fn})
				case (op == "remove" || op == "replace") && !removed:
					removed = true
					removes = append(removes, finOp{pos: c.expr.Lparen, info: info, in: fn})
				}
			}
		}
	}
	return adds, removes
}

// sendsPrimary reports whether a call is handed an object of the primary
// type, or returns one (a clientset's Apply or Patch).
func sendsPrimary(info *types.Info, c call, kind *types.Named) bool {
	for _, arg := range c.expr.Args {
		if isKind(info.TypeOf(arg), kind) {
			return true
		}
	}
	t, ok := info.TypeOf(c.expr).(*types.Tuple)
	return ok && t.Len() > 0 && isKind(t.At(0).Type(), kind)
}

// finalizerPatch reads a literal as a JSON patch operation on the finalizer
// list: its op and the expression of its value.
func (a *analysis) finalizerPatch(info *types.Info, lit *ast.CompositeLit) (op string, value ast.Expr, ok bool) {
	var path string
	var rest []ast.Expr
	for _, el := range lit.Elts {
		kv, isKV := el.(*ast.KeyValueExpr)
		if !isKV {
			return "", nil, false
		}
		s, isString := a.patchString(info, kv.Value)
		switch {
		case isString && strings.HasPrefix(s, finalizersPath):
			path = s
		case isString && (s == "add" || s == "remove" || s == "replace"):
			op = s
		default:
			rest = append(rest, kv.Value)
		}
	}
	if path == "" || op == "" {
		return "", nil, false
	}
	if len(rest) == 1 {
		value = rest[0]
	}
	return op, value, true
}

// patchString is the text a JSON patch operation's field holds, as far as
// it is known: a constant, the start of a string formatted from a constant
// format, or either through a local variable defined once (at :=
// fmt.Sprintf(…)).
func (a *analysis) patchString(info *types.Info, e ast.Expr) (string, bool) {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if def := a.soleDefinition(info, id); def != nil {
			e = def
		}
	}
	if s, ok := stringValue(info, e); ok {
		return s, true
	}
	return a.formattedPrefix(info, e)
}

// formattedPrefix is the start of a string formatted from a constant
// format (fmt.Sprintf("/metadata/finalizers/%d", i)): the format's text up
// to its first verb.
func (a *analysis) formattedPrefix(info *types.Info, e ast.Expr) (string, bool) {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return "", false
	}
	c := a.makeCall(info, ce, nil)
	if !c.known || c.fact.Role != RoleFormat {
		return "", false
	}
	format, ok := stringValue(info, c.arg(c.fact.Arg))
	if !ok {
		return "", false
	}
	prefix, _, _ := strings.Cut(format, "%")
	return prefix, true
}

// stringValue is the constant string value of an expression.
func stringValue(info *types.Info, e ast.Expr) (string, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}

// patchValue is the finalizer a patch adds: its value, or the single
// element of a list literal.
func patchValue(v ast.Expr) ast.Expr {
	if lit, ok := ast.Unparen(v).(*ast.CompositeLit); ok {
		if len(lit.Elts) == 1 {
			return lit.Elts[0]
		}
		return nil
	}
	return v
}

// sentWithKind reports whether the patch (or apply configuration) an
// expression goes into is handed, in the same function, to a call that is
// also handed an object of the primary type or returns one: the expression
// is an argument of that call, or the variables it is assigned (appended)
// to reach one of its arguments.
func (a *analysis) sentWithKind(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, lit ast.Expr, kind *types.Named) bool {
	vars := map[*types.Var]bool{}
	assignedFrom(info, b, lit, false, vars)
	taint(info, b, vars)
	return a.sentFrom(fn, info, b, lit, vars, kind, 0)
}

// patchBuilderDepth bounds how many functions up a patch is followed from
// the function that builds it to the one that sends it.
const patchBuilderDepth = 2

// sentFrom reports whether a patch of fn (the expression e, or the
// variables it is stored in) is sent with an object of the primary type in
// fn, or, when fn returns it, in a caller, through the call's result or
// what it is assigned to.
func (a *analysis) sentFrom(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, e ast.Expr, vars map[*types.Var]bool, kind *types.Named, depth int) bool {
	holds := func(n ast.Node) bool {
		return n.Pos() <= e.Pos() && e.End() <= n.End() || mentions(info, n, vars)
	}
	for _, c := range a.callsIn(fn) {
		carries, primary := false, false
		for _, arg := range c.expr.Args {
			if holds(arg) {
				carries = true
			}
			if isKind(info.TypeOf(arg), kind) || a.handedKind(fn, info, arg, kind) {
				primary = true
			}
		}
		if t, ok := info.TypeOf(c.expr).(*types.Tuple); ok && t.Len() > 0 && isKind(t.At(0).Type(), kind) {
			primary = true // a clientset's Apply or Patch returns the object
		}
		if carries && primary {
			return true
		}
	}
	// The results that return the patch, by index.
	returned := map[int]bool{}
	results := fn.Signature.Results()
	returnsOf(b, func(r *ast.ReturnStmt) {
		for i, res := range r.Results {
			if holds(res) {
				returned[i] = true
			}
		}
		for i := 0; len(r.Results) == 0 && i < results.Len(); i++ {
			if vars[results.At(i)] {
				returned[i] = true // a named result, returned bare
			}
		}
	})
	if len(returned) == 0 || depth >= patchBuilderDepth {
		return false
	}
	for _, e := range a.prog.CallsInto(fn) {
		caller := e.Caller.Func
		cb := body(caller)
		if cb == nil {
			continue
		}
		cinfo := a.infoAt(cb.Pos())
		for _, c := range a.callsIn(caller) {
			if !slices.Contains(c.own, fn) {
				continue
			}
			vars := resultVars(cinfo, cb, c.expr, returned)
			taint(cinfo, cb, vars)
			if a.sentFrom(caller, cinfo, cb, c.expr, vars, kind, depth+1) {
				return true
			}
		}
	}
	return false
}

// resultVars are the variables of body that a call's results of the given
// indexes are assigned to (patch, err := build(…): index 0 is patch).
func resultVars(info *types.Info, body ast.Node, call *ast.CallExpr, indexes map[int]bool) map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	add := func(lhs []ast.Expr, rhs []ast.Expr) {
		for i, r := range rhs {
			if ast.Unparen(r) != call {
				continue
			}
			for j, l := range lhs {
				if len(rhs) == len(lhs) && j != i || len(rhs) != len(lhs) && !indexes[j] {
					continue
				}
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if v, ok := info.ObjectOf(id).(*types.Var); ok {
						vars[v] = true
					}
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			add(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			add(lhs, n.Values)
		}
		return true
	})
	return vars
}

// handedKind reports whether arg is a parameter of fn holding an object of
// an interface type (metav1.Object) that a call of fn hands an object of
// the primary type.
func (a *analysis) handedKind(fn *ssa.Function, info *types.Info, arg ast.Expr, kind *types.Named) bool {
	return a.handedKindIn(fn, info, arg, kind, 0)
}

// handedKindDepth bounds how many callers up an interface-typed parameter
// is followed to the object of the primary type handed in.
const handedKindDepth = 3

// handedKindIn is handedKind, depth callers up: a caller may hand on an
// interface-typed parameter of its own.
func (a *analysis) handedKindIn(fn *ssa.Function, info *types.Info, arg ast.Expr, kind *types.Named, depth int) bool {
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok || !types.IsInterface(info.TypeOf(arg)) {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	params := fn.Signature.Params()
	index := -1
	for i := 0; i < params.Len(); i++ {
		if params.At(i) == v {
			index = i
		}
	}
	if index < 0 {
		return false
	}
	for _, e := range a.prog.CallsInto(fn) {
		cinfo := a.infoAt(posOf(e.Caller.Func))
		if cinfo == nil {
			continue
		}
		for _, c := range a.callsIn(e.Caller.Func) {
			if !slices.Contains(c.own, fn) || c.arg(index) == nil {
				continue
			}
			if isKind(cinfo.TypeOf(c.arg(index)), kind) || depth < handedKindDepth && a.handedKindIn(e.Caller.Func, cinfo, c.arg(index), kind, depth+1) {
				return true
			}
		}
	}
	return false
}

// isKind reports whether t is the primary type or a pointer to it.
func isKind(t types.Type, kind *types.Named) bool {
	n, ok := deref(t).(*types.Named)
	return ok && types.Identical(n, kind)
}
