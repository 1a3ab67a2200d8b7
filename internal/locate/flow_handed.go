package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
)

// A struct a body makes and then hands to a call (as the receiver of a
// method, or by pointer) may have its fields set by that call: an options
// value filled by the options it is applied (opts.apply(o) setting
// o.target). The engine does not follow such a store back through the
// call, so a field read after it is not settled by the value the body
// stored: the stores elsewhere end the trail.

// storedByCalls is the trail's end for a path below local v when v is
// handed to a call and the field the path selects is set in another
// function that may run: nil when it is not. When every call handed v is
// an option (a function value), what the options store is followed
// instead (flow_applied.go).
func (q *query) storedByCalls(b *flowBody, v *types.Var, path []string, depth int) []flowVal {
	if len(path) == 0 || path[0] == elem {
		return nil
	}
	st, ok := deref(v.Type()).Underlying().(*types.Struct)
	if !ok || len(handingCalls(b, v)) == 0 {
		return nil
	}
	var field *types.Var
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == path[0] {
			field = st.Field(i)
		}
	}
	if field == nil {
		return nil
	}
	for _, at := range q.fl.a.fieldSetters(field, b) {
		if blk := b.block(); (at < blk.Pos() || at >= blk.End()) && !q.fl.a.unreferenced(at) {
			if vals, ok := q.storedByOptions(b, v, path, depth); ok {
				return vals
			}
			return []flowVal{{b: b, param: -1, end: at, why: "the field is also set here, by a function the value is handed to"}}
		}
	}
	return nil
}

// fieldSetters are the places that set a struct field by assignment
// (x.f = v), in the tree's own functions and, for a dependency's field,
// in its package's: sorted, computed once per field.
func (a *analysis) fieldSetters(field *types.Var, b *flowBody) []token.Pos {
	if at, ok := a.setters[field]; ok {
		return at
	}
	var at []token.Pos
	visit := func(_ *types.Info, _ *ast.FuncDecl, sel *ast.SelectorExpr, _ ast.Expr) {
		if sel != nil {
			at = append(at, sel.Pos())
		}
	}
	if b.dep && field.Pkg() != nil {
		if dp := a.depPackage(field.Pkg().Path()); dp != nil {
			for _, fb := range dp.funcs {
				storesIn(fb.info, fb.decl, field, visit)
			}
		}
	} else {
		for _, fd := range a.ownFuncs() {
			if info := a.infoAt(fd.Pos()); info != nil {
				storesIn(info, fd, field, visit)
			}
		}
	}
	sort.Slice(at, func(i, j int) bool { return at[i] < at[j] })
	a.setters[field] = at
	return at
}

// fieldStores calls store with every value the tree's functions store in
// a struct field (x.f = v, T{f: v}).
func (a *analysis) fieldStores(field *types.Var, store func(info *types.Info, fd *ast.FuncDecl, value ast.Expr)) {
	for _, fd := range a.ownFuncs() {
		info := a.infoAt(fd.Pos())
		if info == nil {
			continue
		}
		storesIn(info, fd, field, func(info *types.Info, fd *ast.FuncDecl, _ *ast.SelectorExpr, value ast.Expr) {
			if value != nil {
				store(info, fd, value)
			}
		})
	}
}

// storesIn calls visit for each store into field in fd's body: an
// assignment (its selector, and the value when the two sides line up) or
// a keyed literal's field (no selector).
func storesIn(info *types.Info, fd *ast.FuncDecl, field *types.Var, visit func(info *types.Info, fd *ast.FuncDecl, sel *ast.SelectorExpr, value ast.Expr)) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			keyedFields(info, n, func(v *types.Var, kv *ast.KeyValueExpr) {
				if v == field {
					visit(info, fd, nil, kv.Value)
				}
			})
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || info.Uses[sel.Sel] != field {
					continue
				}
				var value ast.Expr
				if len(n.Lhs) == len(n.Rhs) {
					value = n.Rhs[i]
				}
				visit(info, fd, sel, value)
			}
		}
		return true
	})
}
