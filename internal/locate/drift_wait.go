package locate

import (
	"go/ast"
	"go/token"
	"go/types"
)

// waitsForValue reports whether an if waits for a value of another
// object to appear: its condition holds when a value is missing (a
// comparison equal to a zero constant, len(ingressPoints(svc)) == 0 or
// name == "", alone or joined by ||) and reads neither the primary
// object nor a value computed from two (computedFromTwo). A difference found empty
// (missing := missingLabels(live.Labels, cm.Data); len(missing) == 0, or
// p, err := MergePatch(live, desired); len(p) == 0) finds the states
// equal instead.
func waitsForValue(info *types.Info, body *ast.BlockStmt, kind *types.Named, ifs *ast.IfStmt) bool {
	return holdsWhenMissing(info, ifs.Cond) && !readsPrimary(info, kind, ifs.Cond) && !computedFromTwo(info, body, ifs.Cond, 0)
}

// computedFromTwo reports whether an expression holds, itself or through
// the locals it reads (two assignments deep), a call handed two values or
// more besides a context: a difference of two states (p, err :=
// MergePatch(live, desired); len(p) == 0), where a view of one object
// (len(ingressPoints(svc)) == 0) is not.
func computedFromTwo(info *types.Info, body *ast.BlockStmt, e ast.Expr, depth int) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			values := 0
			for _, arg := range n.Args {
				if t := info.TypeOf(arg); t != nil && !isContext(t) {
					values++
				}
			}
			found = values >= 2
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && depth < 2 && !v.IsField() && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
				for _, r := range assignmentsTo(info, body, v) {
					found = found || computedFromTwo(info, body, r, depth+1)
				}
			}
		}
		return !found
	})
	return found
}

// readsPrimary reports whether an expression reads the primary object
// itself (a local merely built from it, then read back from the cluster,
// is another object).
func readsPrimary(info *types.Info, kind *types.Named, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found {
			if v, ok := info.Uses[id].(*types.Var); ok && isKindValue(v.Type(), kind) {
				found = true
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
