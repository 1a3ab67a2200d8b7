package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// A controller may keep its object's state in an entry of the object's
// labels or annotations instead of a field (stamped: "true"): the entries
// its own pass writes there, with constant keys and values, are states it
// moves the object to, as the constants it writes to a field are.

// metadataMapExpr reports whether e reads a map of the metadata of an
// object of kind: a selection yielding a map made on such an object
// (obj.Labels), or a call of such an object's method without arguments
// returning one (obj.GetLabels()).
func metadataMapExpr(info *types.Info, e ast.Expr, kind *types.Named) bool {
	if kind == nil {
		return false
	}
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 0 {
		e = c.Fun
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := info.Selections[sel]
	if s == nil || !yieldsMap(s) {
		return false
	}
	n, ok := deref(info.TypeOf(sel.X)).(*types.Named)
	return ok && types.Identical(n, kind)
}

// entryComparison reads a comparison of an entry of the primary's metadata
// maps, under a constant key, with a constant (obj.GetLabels()["stamped"]
// == "true"): the key and the constant, or "" when it is not one.
func (a *analysis) entryComparison(info *types.Info, b *ast.BinaryExpr, kind *types.Named) (string, constant.Value) {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return "", nil
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		ix, ok := ast.Unparen(pair[0]).(*ast.IndexExpr)
		tv := info.Types[ast.Unparen(pair[1])]
		if !ok || tv.Value == nil || !metadataMapExpr(info, ix.X, kind) {
			continue
		}
		if key := info.Types[ix.Index].Value; key != nil && key.Kind() == constant.String {
			return constant.StringVal(key), tv.Value
		}
	}
	return "", nil
}

// writtenEntries are the constants the reached functions of the tree's
// own store under key in a metadata map of an object of kind (entryStores:
// labels[key] = "true", metav1.SetMetaDataLabel(&obj.ObjectMeta, key,
// "true")).
func (a *analysis) writtenEntries(reach *callgraph.Reach, kind *types.Named, key string) []constant.Value {
	var out []constant.Value
	a.entryStores(reach, kind, func(info *types.Info, k string, value ast.Expr) {
		if v := info.Types[ast.Unparen(value)].Value; k == key && v != nil {
			out = append(out, v)
		}
	})
	return out
}

// objectsMap reports whether a map expression of body is a metadata map of
// an object of kind (writtenEntries).
func (a *analysis) objectsMap(info *types.Info, body *ast.BlockStmt, e ast.Expr, kind *types.Named) bool {
	if metadataMapExpr(info, e, kind) {
		return true
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok {
		return false
	}
	for _, rhs := range assignmentsTo(info, body, v) {
		if metadataMapExpr(info, rhs, kind) {
			return true
		}
	}
	handed := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || handed {
			return !handed
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if s := info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
			return true
		}
		if n, ok := deref(info.TypeOf(sel.X)).(*types.Named); !ok || !types.Identical(n, kind) {
			return true
		}
		for _, arg := range c.Args {
			if aid, ok := ast.Unparen(arg).(*ast.Ident); ok && info.Uses[aid] == v {
				handed = true
			}
		}
		return true
	})
	return handed
}

// A controller may also mark its object with an entry whose value it does
// not fix (the time it first saw it, the key it was queued under): a test
// of whether the entry is there, holding when it is, is taken by an object
// the pass has marked.

// markTest reads a test of whether an entry of the primary's labels or
// annotations, under a constant key, is there: m[k] != "" (m[k] == ""
// holds when it is not), the ok of `_, ok := m[k]`, a library's test
// (metav1.HasAnnotation), and their negations. It gives the key and
// whether the condition holds when the entry is there; "" when cond is no
// such test. body is the function's, whose locals cond may read.
func (a *analysis) markTest(info *types.Info, body *ast.BlockStmt, cond ast.Expr, kind *types.Named) (key string, whenSet bool) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			key, whenSet = a.markTest(info, body, e.X, kind)
			return key, !whenSet
		}
	case *ast.BinaryExpr:
		if e.Op != token.EQL && e.Op != token.NEQ {
			return "", false
		}
		for _, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
			v := info.Types[ast.Unparen(pair[1])].Value
			if v == nil || v.Kind() != constant.String || constant.StringVal(v) != "" {
				continue
			}
			if k := a.entryKey(info, body, pair[0], kind); k != "" {
				return k, e.Op == token.NEQ
			}
		}
	case *ast.Ident:
		if v := localBool(info, e); v != nil && len(assignmentsTo(info, body, v)) == 1 {
			if ix := commaOkIndex(info, body, v); ix != nil {
				return a.entryKey(info, body, ix, kind), true
			}
		}
	case *ast.CallExpr:
		c := a.makeCall(info, e, nil)
		if c.known && c.fact.Role == RoleMetaEntryHas && c.fact.Arg < len(e.Args) && metadataOf(info, e.Args[c.fact.Obj], kind) {
			k, _ := constString(info, ast.Unparen(e.Args[c.fact.Arg]))
			return k, true
		}
	}
	return "", false
}

// entryKey is the constant key of an index of a metadata map of the
// primary (obj.Labels[k], or a local holding that map), or "".
func (a *analysis) entryKey(info *types.Info, body *ast.BlockStmt, e ast.Expr, kind *types.Named) string {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok || !a.objectsMap(info, body, ix.X, kind) {
		return ""
	}
	k, _ := constString(info, ast.Unparen(ix.Index))
	return k
}

// commaOkIndex is the map index whose presence v holds (_, v := m[k]), or
// nil.
func commaOkIndex(info *types.Info, body *ast.BlockStmt, v *types.Var) *ast.IndexExpr {
	var out *ast.IndexExpr
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return out == nil
		}
		if id, ok := ast.Unparen(as.Lhs[1]).(*ast.Ident); ok && info.ObjectOf(id) == v {
			out, _ = ast.Unparen(as.Rhs[0]).(*ast.IndexExpr)
		}
		return out == nil
	})
	return out
}

// metadataOf reports whether e is the metadata of an object of kind, or
// its address (obj.ObjectMeta, &obj.ObjectMeta).
func metadataOf(info *types.Info, e ast.Expr, kind *types.Named) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || kind == nil {
		return false
	}
	n, ok := deref(info.TypeOf(sel.X)).(*types.Named)
	return ok && types.Identical(n, kind) && sel.Sel.Name == "ObjectMeta"
}

// marked reports whether the reached functions of the tree's own store a
// value under key in a metadata map of an object of kind (entryStores),
// other than the empty string.
func (a *analysis) marked(reach *callgraph.Reach, kind *types.Named, key string) bool {
	found := false
	a.entryStores(reach, kind, func(info *types.Info, k string, value ast.Expr) {
		if v, ok := constString(info, ast.Unparen(value)); k == key && (!ok || v != "") {
			found = true
		}
	})
	return found
}

// entryStores visits the stores of the reached functions of the tree's own
// into an entry of a metadata map of an object of kind, under a constant
// key, but those under the branch of a test that found an error: the map
// read from the object, directly or through a local variable, or a local
// handed to one of the object's methods (labels[key] = v, objectsMap), or
// a library call (metav1.SetMetaDataAnnotation(&obj.ObjectMeta, key, v)).
// visit is given the key and the value stored.
func (a *analysis) entryStores(reach *callgraph.Reach, kind *types.Named, visit func(info *types.Info, key string, value ast.Expr)) {
	for _, fn := range reach.Funcs() {
		b := body(fn)
		if b == nil || !a.prog.Own[fn] {
			continue
		}
		info := a.infoAt(b.Pos())
		if info == nil {
			continue
		}
		parents := parentsIn(b)
		ast.Inspect(b, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) || underErrorTest(info, parents, as) {
				return true
			}
			for i, l := range as.Lhs {
				if k := a.entryKey(info, b, l, kind); k != "" {
					visit(info, k, as.Rhs[i])
				}
			}
			return true
		})
		for _, c := range a.callsIn(fn) {
			if !c.known || c.fact.Role != RoleMetaEntrySet || c.fact.Arg+1 >= len(c.expr.Args) || underErrorTest(info, parents, c.expr) || !metadataOf(info, c.expr.Args[c.fact.Obj], kind) {
				continue
			}
			if k, ok := constString(info, ast.Unparen(c.expr.Args[c.fact.Arg])); ok {
				visit(info, k, c.expr.Args[c.fact.Arg+1])
			}
		}
	}
}

// setsEntry reports whether a block stores an entry of an object's labels
// or annotations through a library (metav1.SetMetaDataAnnotation).
func (a *analysis) setsEntry(info *types.Info, b *ast.BlockStmt) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok && !found {
			c := a.makeCall(info, ce, nil)
			found = c.known && c.fact.Role == RoleMetaEntrySet
		}
		return !found
	})
	return found
}
