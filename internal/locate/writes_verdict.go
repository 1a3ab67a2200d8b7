package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A controller may ask a helper of its own whether its object is due
// (`due, left := r.shouldRun(obj)`) and, when it is not, only wait for
// the time the helper says is left (`if !due { return
// ctrl.Result{RequeueAfter: left}, nil }`). When every return of the
// helper that gives that verdict hands back, as the time left, the clock's
// distance to a time the object's status records (time.Until(next), with
// next read from obj.Status), the branch is the object's wait for its next
// action, as notDue's is: it ends an unchanged object's pass.

// helperNotDue reports whether cond tests a bool result of a call of the
// tree's own whose returns giving the verdict that takes the branch all
// hand back, in the result the branch's RequeueAfter reads, the time left
// to a time the primary's status records. list is the branch, fb fn's body.
func (a *analysis) helperNotDue(info *types.Info, fn *ssa.Function, fb *ast.BlockStmt, cond ast.Expr, list []ast.Stmt, kind *types.Named) bool {
	if kind == nil || fb == nil {
		return false
	}
	taken := true
	if u, ok := ast.Unparen(cond).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		cond, taken = u.X, false
	}
	verdict, ok := ast.Unparen(cond).(*ast.Ident)
	if !ok {
		return false
	}
	results, _, ok := returnedBy(info, fn, list)
	if !ok || len(results) != 2 {
		return false
	}
	lit, ok := ast.Unparen(results[0]).(*ast.CompositeLit)
	if !ok || !isResultLiteral(info, lit) || len(lit.Elts) != 1 {
		return false
	}
	kv, ok := lit.Elts[0].(*ast.KeyValueExpr)
	if !ok {
		return false
	}
	left, ok := ast.Unparen(kv.Value).(*ast.Ident)
	if !ok {
		return false
	}
	ce, vi, ok := tupleResultOf(info, fb, varOf(info, verdict))
	if !ok {
		return false
	}
	ce2, li, ok := tupleResultOf(info, fb, varOf(info, left))
	if !ok || ce2 != ce {
		return false
	}
	c := a.makeCall(info, ce, fn)
	if len(c.own) != 1 {
		return false
	}
	h := c.own[0]
	hb := body(h)
	if hb == nil {
		return false
	}
	hinfo := a.infoAt(hb.Pos())
	if hinfo == nil {
		return false
	}
	found, every := 0, true
	ast.Inspect(hb, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) <= vi || len(n.Results) <= li {
				every = false
				return false
			}
			b, isConst := boolConst(hinfo, n.Results[vi])
			if !isConst {
				every = false
				return false
			}
			if b != taken {
				return false
			}
			found++
			if !everyValue(hinfo, hb, n.Results[li], func(e ast.Expr) bool { return a.timeLeft(hinfo, hb, e, kind) }) {
				every = false
			}
		}
		return every
	})
	return every && found > 0
}

// tupleResultOf returns the call whose result i every assignment to v
// takes, when there is one such call.
func tupleResultOf(info *types.Info, body *ast.BlockStmt, v *types.Var) (*ast.CallExpr, int, bool) {
	if v == nil {
		return nil, 0, false
	}
	var ce *ast.CallExpr
	idx, n, ok := 0, 0, true
	ast.Inspect(body, func(node ast.Node) bool {
		as, isAssign := node.(*ast.AssignStmt)
		if !isAssign {
			return ok
		}
		for i, l := range as.Lhs {
			id, isID := ast.Unparen(l).(*ast.Ident)
			if !isID || varOf(info, id) != v {
				continue
			}
			call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if len(as.Rhs) != 1 || !isCall || len(as.Lhs) < 2 {
				ok = false
				return false
			}
			ce, idx = call, i
			n++
		}
		return ok
	})
	return ce, idx, ok && n == 1
}

// boolConst reads e as the constant true or false.
func boolConst(info *types.Info, e ast.Expr) (bool, bool) {
	tv, ok := info.Types[e]
	if !ok || tv.Value == nil {
		return false, false
	}
	if b, isBool := tv.Type.Underlying().(*types.Basic); !isBool || b.Kind() != types.Bool && b.Kind() != types.UntypedBool {
		return false, false
	}
	return tv.Value.String() == "true", true
}

// timeLeft reports whether e is the clock's distance to a time the
// primary's status records: time.Until(t) or t.Sub(now), with t (or the
// local holding it) read from a field under the primary's Status.
func (a *analysis) timeLeft(info *types.Info, body *ast.BlockStmt, e ast.Expr, kind *types.Named) bool {
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	statusTime := func(x ast.Expr) bool {
		return everyValue(info, body, x, func(v ast.Expr) bool { return a.readsStatus(info, v, kind) })
	}
	if f, isFunc := namedBy(info, ce.Fun).(*types.Func); isFunc && f.Pkg() != nil && f.Pkg().Path() == "time" && f.Name() == "Until" && len(ce.Args) == 1 {
		return statusTime(ce.Args[0])
	}
	if sel, isSel := ast.Unparen(ce.Fun).(*ast.SelectorExpr); isSel && sel.Sel.Name == "Sub" && len(ce.Args) == 1 {
		return statusTime(sel.X) && a.readsClock(info, body, ce.Args[0])
	}
	return false
}

// readsStatus is readsStatusOf, counting a call of a method of the
// primary type that hands back its Status (k6.GetStatus().Stage) as a read
// of it.
func (a *analysis) readsStatus(info *types.Info, e ast.Expr, kind *types.Named) bool {
	if readsStatusOf(info, e, kind) {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if ce, ok := n.(*ast.CallExpr); ok && !found && len(ce.Args) == 0 {
			if sel, ok := ast.Unparen(ce.Fun).(*ast.SelectorExpr); ok && isKind(info.TypeOf(sel.X), kind) {
				found = a.statusGetter(info, ce)
			}
		}
		return !found
	})
	return found
}

// statusGetter reports whether ce calls a method of the tree's whose body
// is one return of its receiver's Status (or its address).
func (a *analysis) statusGetter(info *types.Info, ce *ast.CallExpr) bool {
	c := a.makeCall(info, ce, nil)
	if c.known || len(c.own) != 1 {
		return false
	}
	decl, _ := c.own[0].Syntax().(*ast.FuncDecl)
	if decl == nil || decl.Body == nil || decl.Recv == nil || len(decl.Body.List) != 1 || len(decl.Recv.List) != 1 || len(decl.Recv.List[0].Names) != 1 {
		return false
	}
	ret, ok := decl.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	x := ast.Unparen(ret.Results[0])
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Status" {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && id.Name == decl.Recv.List[0].Names[0].Name
}

// readsStatusOf reports whether e reads a field under the Status of a
// value of the primary type.
func readsStatusOf(info *types.Info, e ast.Expr, kind *types.Named) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Status" && isKind(info.TypeOf(sel.X), kind) {
			found = true
		}
		return !found
	})
	return found
}
