package locate

// What the values a drift test reads are: live state a getter of the
// tree hands back, and a value compared with itself.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// liveGetter is one own function read for the values it returns, with the
// primary kind whose Spec is desired state rather than live.
type liveGetter struct {
	fn   *ssa.Function
	kind *types.Named
}

// returnsLive reports whether a call hands back live state: it runs one
// function of the tree's, and a result of that function other than its
// error reads live state at one of its returns (current, err :=
// r.currentReplicas(ctx, obj), the function reading a child and returning
// its replica count). A getter that reads only the primary's Spec hands
// back desired state, as reading it in place would.
func (a *analysis) returnsLive(info *types.Info, ce *ast.CallExpr, kind *types.Named) bool {
	c := a.makeCall(info, ce, nil)
	if c.known || len(c.own) != 1 {
		return false
	}
	k := liveGetter{c.own[0], kind}
	if v, ok := a.liveGetters[k]; ok {
		return v
	}
	a.liveGetters[k] = false // a recursive getter reads nothing more
	b := body(k.fn)
	if b == nil {
		return false
	}
	binfo := a.infoAt(b.Pos())
	if binfo == nil {
		return false
	}
	live := false
	returnsOf(b, func(r *ast.ReturnStmt) {
		for _, res := range r.Results {
			if t := binfo.TypeOf(res); live || t == nil || isErrorType(t) || isNil(binfo, res) || isConst(binfo, res) {
				continue
			}
			live = a.readsLive(binfo, b, kind, res, nil, map[*types.Var]bool{})
		}
	})
	a.liveGetters[k] = live
	return live
}

// sameValue reports whether x and y read one value the same way: the same
// variable, or the same chain of field selections, dereferences and
// constant indexes on it (equality.Semantic.DeepDerivative(want.Spec,
// want.Spec)). A comparison of a value with itself finds no difference,
// whatever it holds: it compares nothing.
func sameValue(info *types.Info, x, y ast.Expr) bool {
	x, y = ast.Unparen(x), ast.Unparen(y)
	switch x := x.(type) {
	case *ast.Ident:
		y, ok := y.(*ast.Ident)
		return ok && info.Uses[x] != nil && info.Uses[x] == info.Uses[y]
	case *ast.SelectorExpr:
		y, ok := y.(*ast.SelectorExpr)
		return ok && info.Uses[x.Sel] != nil && info.Uses[x.Sel] == info.Uses[y.Sel] && sameValue(info, x.X, y.X)
	case *ast.StarExpr:
		y, ok := y.(*ast.StarExpr)
		return ok && sameValue(info, x.X, y.X)
	case *ast.UnaryExpr:
		y, ok := y.(*ast.UnaryExpr)
		return ok && x.Op == token.AND && y.Op == token.AND && sameValue(info, x.X, y.X)
	case *ast.IndexExpr:
		y, ok := y.(*ast.IndexExpr)
		if !ok || !sameValue(info, x.X, y.X) {
			return false
		}
		xv, yv := info.Types[x.Index].Value, info.Types[y.Index].Value
		return xv != nil && yv != nil && constant.Compare(xv, token.EQL, yv) || sameValue(info, x.Index, y.Index)
	}
	return false
}

// comparesItself reports whether a test is one comparison of a value with
// itself (!equality.Semantic.DeepEqual(want, want), a == a): it always
// finds them equal, so what it guards runs always or never, on no
// difference.
func (a *analysis) comparesItself(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		return (x.Op == token.EQL || x.Op == token.NEQ) && sameValue(info, x.X, x.Y)
	case *ast.CallExpr:
		c := a.makeCall(info, x, nil)
		return c.known && c.fact.Role == RoleCompare && len(x.Args) >= 2 && sameValue(info, x.Args[0], x.Args[1])
	}
	return false
}
