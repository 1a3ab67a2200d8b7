package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// A controller may also record on its object's status that it is done
// with it (obj.Status.Result, obj.Status.CompletionTime) and return early
// once the record is there (`if obj.Status.Result != nil { return nil }`).
// When the pass itself stores a value in that field (assigned, or set in a
// literal of the status type it writes: &Status{Result: r}), an object the
// controller has handled takes the branch: it ends an unchanged object's
// pass.

// presenceTest reads a test of whether a field under the primary's Status
// is set: x != nil, x != "", len(x) > 0 (or != 0), and their negations
// (== nil, == "", len(x) == 0, !). It gives the field and whether the
// condition holds when the field is set; nil when cond is no such test.
func presenceTest(info *types.Info, cond ast.Expr, kind *types.Named) (field *types.Var, whenSet bool) {
	switch e := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			field, whenSet = presenceTest(info, e.X, kind)
			return field, !whenSet
		}
	case *ast.BinaryExpr:
		for i, pair := range [][2]ast.Expr{{e.X, e.Y}, {e.Y, e.X}} {
			x, zero, op := pair[0], pair[1], e.Op
			if i == 1 && op == token.LSS {
				op = token.GTR // 0 < len(x)
			}
			if l, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(l.Args) == 1 && isBuiltin(info, l.Fun, "len") {
				if v := info.Types[ast.Unparen(zero)].Value; v == nil || v.String() != "0" {
					continue
				}
				x = l.Args[0]
			} else if !isNil(info, zero) && !emptyString(info, zero) || op == token.GTR {
				continue
			}
			f := primaryField(info, x, kind)
			if f == nil || !readsStatusOf(info, x, kind) {
				continue
			}
			switch op {
			case token.NEQ, token.GTR:
				return f, true
			case token.EQL:
				return f, false
			}
		}
	}
	return nil, false
}

// emptyString reports whether e is the constant "".
func emptyString(info *types.Info, e ast.Expr) bool {
	v := info.Types[ast.Unparen(e)].Value
	return v != nil && v.String() == `""`
}

// setsField reports whether a reached function of the tree's own stores a
// value other than nil or "" in field, outside the branch of a test that
// found an error: assigned to it, or given it in a composite literal of
// the struct that declares it.
func (a *analysis) setsField(reach *callgraph.Reach, field *types.Var) bool {
	found := false
	a.eachOwnBody(reach, func(info *types.Info, b *ast.BlockStmt) bool {
		parents := parentsIn(b)
		stored := func(at ast.Node, key *ast.Ident, value ast.Expr) {
			if v, ok := info.Uses[key].(*types.Var); ok && v.Origin() == field && !isNil(info, value) && !emptyString(info, value) && !underErrorTest(info, parents, at) {
				found = true
			}
		}
		ast.Inspect(b, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok {
							stored(n, sel.Sel, n.Rhs[i])
						}
					}
				}
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					stored(n, id, n.Value)
				}
			}
			return !found
		})
		return !found
	})
	return found
}
