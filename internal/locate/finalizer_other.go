package locate

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An object of the primary type that a function makes afresh and fills by
// a read of a name taken from the primary's Spec (a dependency the Spec
// names: `var dep T; r.Get(ctx, types.NamespacedName{Name: d.Name}, &dep)`
// for each d of obj.Spec.DependsOn) is another object of that type, not
// the one reconciled: a finalizer it adds or removes (one marking it as
// depended on) is not the primary's. A read whose key takes its name from
// the primary's own name (obj.Name, obj.GetName(), ObjectKeyFromObject)
// re-reads the primary, and a name handed in from elsewhere proves
// nothing: only a name from the Spec, and no own name, settles it.

// readByOtherName reports whether holder, in fn (whose body is b), is a
// local of the primary type made afresh in fn and filled only by reads of
// a name from the primary's Spec.
func (a *analysis) readByOtherName(fn *ssa.Function, info *types.Info, b *ast.BlockStmt, holder ast.Expr, kind *types.Named) bool {
	if kind == nil || holder == nil || b == nil {
		return false
	}
	id, ok := stripAddr(holder).(*ast.Ident)
	if !ok {
		return false
	}
	v := varOf(info, id)
	if v == nil || v.Pos() < b.Pos() || v.Pos() >= b.End() || !isKind(v.Type(), kind) {
		return false
	}
	// Every value v is given is a fresh object (var v T, v := &T{}).
	fresh := true
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				lid, ok := ast.Unparen(l).(*ast.Ident)
				if !ok || varOf(info, lid) != v {
					continue
				}
				if len(n.Rhs) != len(n.Lhs) || !freshObject(info, n.Rhs[i]) {
					fresh = false
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if varOf(info, name) == v && i < len(n.Values) && !freshObject(info, n.Values[i]) {
					fresh = false
				}
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if lid, ok := e.(*ast.Ident); ok && varOf(info, lid) == v {
					fresh = false
				}
			}
		}
		return fresh
	})
	if !fresh {
		return false
	}
	spec, own := a.specNamed(info, b, kind)
	reads := 0
	for _, c := range a.callsIn(fn) {
		if !c.known || c.fact.Role != RoleRead || c.fact.Obj < 0 || c.fact.Key < 0 {
			continue
		}
		oid, ok := stripAddr(c.arg(c.fact.Obj)).(*ast.Ident)
		if !ok || varOf(info, oid) != v {
			continue
		}
		key := c.arg(c.fact.Key)
		if key == nil || !mentionsSpec(info, key, kind, spec) || mentionsOwnName(info, key, kind, own) {
			return false
		}
		reads++
	}
	return reads > 0
}

// freshObject reports whether e makes a new object with nothing in it:
// &T{}, T{}, new(T).
func freshObject(info *types.Info, e ast.Expr) bool {
	e = stripAddr(e)
	switch x := e.(type) {
	case *ast.CompositeLit:
		return len(x.Elts) == 0
	case *ast.CallExpr:
		return len(x.Args) == 1 && isBuiltin(info, x.Fun, "new")
	}
	return false
}

// specNamed returns the variables of body b holding a value taken from
// the primary's Spec (a range over obj.Spec.DependsOn, a local set from
// obj.Spec.Ref) and those holding its own name (obj.GetName(), a key
// made from it). An object is neither: it holds both (see taint).
func (a *analysis) specNamed(info *types.Info, b *ast.BlockStmt, kind *types.Named) (spec, own map[*types.Var]bool) {
	spec, own = map[*types.Var]bool{}, map[*types.Var]bool{}
	seed := func(vars map[*types.Var]bool, test func(ast.Expr) bool) {
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for _, r := range n.Rhs {
					if test(r) {
						for _, l := range n.Lhs {
							if id, ok := ast.Unparen(l).(*ast.Ident); ok {
								if v := varOf(info, id); v != nil && !isReadObject(v.Type()) {
									vars[v] = true
								}
							}
						}
					}
				}
			case *ast.ValueSpec:
				for _, r := range n.Values {
					if test(r) {
						for _, id := range n.Names {
							if v := varOf(info, id); v != nil && !isReadObject(v.Type()) {
								vars[v] = true
							}
						}
					}
				}
			case *ast.RangeStmt:
				if test(n.X) {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							if v := varOf(info, id); v != nil && !isReadObject(v.Type()) {
								vars[v] = true
							}
						}
					}
				}
			}
			return true
		})
		taint(info, b, vars)
	}
	seed(spec, func(e ast.Expr) bool { return mentionsSpec(info, e, kind, nil) })
	seed(own, func(e ast.Expr) bool { return mentionsOwnName(info, e, kind, nil) })
	return spec, own
}

// mentionsSpec reports whether e reads the primary's Spec, or a variable
// of vars.
func mentionsSpec(info *types.Info, e ast.Expr, kind *types.Named, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if n.Sel.Name == "Spec" && isKind(info.TypeOf(n.X), kind) {
				found = true
			}
		case *ast.Ident:
			if v := varOf(info, n); v != nil && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// mentionsOwnName reports whether e reads the primary's own name or
// metadata (obj.Name, obj.GetName(), obj.ObjectMeta, the object handed
// whole to a call: client.ObjectKeyFromObject(obj)), or a variable of
// vars.
func mentionsOwnName(info *types.Info, e ast.Expr, kind *types.Named, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if isKind(info.TypeOf(n.X), kind) {
				switch n.Sel.Name {
				case "Name", "GetName", "ObjectMeta", "GetObjectMeta":
					found = true
				}
			}
		case *ast.CallExpr:
			for _, arg := range n.Args {
				if isKind(info.TypeOf(arg), kind) {
					found = true
				}
			}
		case *ast.Ident:
			if v := varOf(info, n); v != nil && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}
