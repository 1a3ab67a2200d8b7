package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// waitsForValue reports whether an if waits for a value of another
// object to appear: its condition holds when a value is missing (a
// comparison equal to a zero constant, len(ingressPoints(svc)) == 0 or
// name == "", alone or joined by ||) and reads nothing of the primary
// object (through the locals it reads, two assignments deep). A
// difference computed from the primary's desired state and found empty
// (missing := missingLabels(live.Labels, cm.Data); len(missing) == 0)
// finds the states equal instead.
func waitsForValue(info *types.Info, body *ast.BlockStmt, kind *types.Named, ifs *ast.IfStmt) bool {
	return holdsWhenMissing(info, ifs.Cond) && !readsPrimary(info, body, kind, ifs.Cond, 0)
}

// readsPrimary reports whether an expression reads the primary object,
// itself or through the locals it reads, assigned from it (two
// assignments deep).
func readsPrimary(info *types.Info, body *ast.BlockStmt, kind *types.Named, e ast.Expr, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		v, ok := info.Uses[id].(*types.Var)
		switch {
		case !ok:
		case isKindValue(v.Type(), kind):
			found = true
		case depth < 2 && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope():
			for _, r := range assignmentsTo(info, body, v) {
				found = found || readsPrimary(info, body, kind, r, depth+1)
			}
		}
		return !found
	})
	return found
}

// holdsWhenMissing reports whether a condition is a comparison equal to a
// zero constant, alone or joined by ||.
func holdsWhenMissing(info *types.Info, cond ast.Expr) bool {
	e, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch e.Op {
	case token.LOR:
		return holdsWhenMissing(info, e.X) && holdsWhenMissing(info, e.Y)
	case token.EQL:
		return isZeroConst(info, ast.Unparen(e.X)) || isZeroConst(info, ast.Unparen(e.Y))
	}
	return false
}

// unconverted is e without the conversions around it (iface(x) is x).
func unconverted(info *types.Info, e ast.Expr) ast.Expr {
	for {
		ce, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(ce.Args) != 1 || !info.Types[ce.Fun].IsType() {
			return ast.Unparen(e)
		}
		e = ce.Args[0]
	}
}
