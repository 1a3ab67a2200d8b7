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
// own store under key in a metadata map of an object of kind (labels[key]
// = "true"), but under the branch of a test that found an error. The map
// is the object's when it is read from it (obj.Labels, obj.GetLabels()),
// directly or through a local variable, or a local handed to one of the
// object's methods (obj.SetLabels(labels)).
func (a *analysis) writtenEntries(reach *callgraph.Reach, kind *types.Named, key string) []constant.Value {
	var out []constant.Value
	a.stateStores(reach, func(info *types.Info, b *ast.BlockStmt, lhs, rhs ast.Expr) {
		ix, ok := ast.Unparen(lhs).(*ast.IndexExpr)
		if !ok {
			return
		}
		k := info.Types[ix.Index].Value
		if k != nil && k.Kind() == constant.String && constant.StringVal(k) == key && a.objectsMap(info, b, ix.X, kind) {
			out = append(out, info.Types[rhs].Value)
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
