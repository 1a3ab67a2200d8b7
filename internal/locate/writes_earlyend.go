package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// endedEarly is the first test on a write's way that ends the pass with
// a nil error before the write when it holds, and that compares two states
// the pass computed (comparesState): `if len(diff) == 0 { return nil }`,
// `if inSync { return ctrl.Result{RequeueAfter: d}, nil }`. An unchanged
// object's pass may end there, having nothing to apply, so the write is
// not proven to be made on every pass, though every normal return the
// pass is known to end at comes after it. The test is looked for in the write's function
// and in each function on the way from the entry along via, at its call.
//
// A function run on every pass from two places (a status patch made both
// before the work and in a deferred closure) is ended early only if the
// pass meets such a test on the way to each of them: a call of fn from
// another function every pass runs, whose way holds no such test, makes
// the write on a pass that ends at the test too.
func (a *analysis) endedEarly(fn *ssa.Function, node ast.Node, kind *types.Named, via map[*ssa.Function]*callgraph.Edge, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int) ast.Expr {
	ends := func(info *types.Info, b *ast.BlockStmt, at ast.Node) ast.Expr {
		return a.endsBefore(info, b, kind, at)
	}
	test := a.testOnTheWay(pathIn(via, fn), fn, node, ends)
	if test == nil || a.testOnTheWay(nil, fn, node, ends) != nil {
		return test
	}
	first := via[fn]
	for _, e := range a.prog.CallsInto(fn) {
		caller := e.Caller.Func
		if e.Site == nil || first != nil && e.Site == first.Site || caller == fn {
			continue
		}
		if _, ok := via[caller]; !ok {
			continue
		}
		b := body(caller)
		if b == nil {
			continue
		}
		at := siteIn(b, e.Site.Pos())
		if at == nil || !a.always(caller, e.Site.Pos(), via, normal, taken, passView{}) {
			continue
		}
		if a.testOnTheWay(pathIn(via, caller), caller, at, ends) == nil {
			return nil
		}
	}
	return test
}

// endsBefore is the condition of an if, before at in one of the blocks
// around it, whose branch returns with no failure (a nil error, or the
// error of a call of the tree's, which may be nil) and which compares two
// states (or desired with live state as the drift answer reads such a
// comparison: through a predicate of the tree's whose body compares),
// unless it holds only where they differ: an unchanged object's
// states are equal, and its pass goes on past such a branch.
func (a *analysis) endsBefore(info *types.Info, b *ast.BlockStmt, kind *types.Named, at ast.Node) ast.Expr {
	parents := parentsIn(b)
	for n, p := at, parents[at]; p != nil; n, p = p, parents[p] {
		list, ok := p.(*ast.BlockStmt)
		if !ok {
			continue
		}
		for _, st := range list.List {
			if st == n {
				break
			}
			ifs, ok := st.(*ast.IfStmt)
			if !ok || len(ifs.Body.List) == 0 {
				continue
			}

			if a.endsWithoutFailure(info, ifs.Body.List) && !waitsForValue(info, b, kind, ifs) && (comparesState(info, b, kind, ifs.Cond) || a.compares(info, b, kind, ifs.Cond, ifs.Body, 0, nil)) && !a.heldWhenDiffer(info, b, ifs.Cond) {
				return ifs.Cond
			}
		}
	}
	return nil
}

// endsWithoutFailure reports whether a branch ends in a return that hands
// back a nil error, or the error of a call that runs a function of the
// tree's (return res, check()), which may be nil: written in the return,
// or assigned to the named results just before a bare one.
func (a *analysis) endsWithoutFailure(info *types.Info, list []ast.Stmt) bool {
	ret, ok := list[len(list)-1].(*ast.ReturnStmt)
	if !ok {
		return false
	}
	results := ret.Results
	if len(results) == 0 && len(list) > 1 {
		if as, ok := list[len(list)-2].(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			results = as.Rhs
		}
	}
	if len(results) == 0 {
		return false
	}
	last := ast.Unparen(results[len(results)-1])
	if ce, ok := last.(*ast.CallExpr); ok {
		return len(a.callees[ce.Lparen]) > 0
	}
	return isNil(info, last)
}

// heldWhenDiffer reports whether a condition holds only where the states
// it compares differ (polarity), or is a disjunction of such tests and of
// tests that a value is absent (x == nil || *x != want).
func (a *analysis) heldWhenDiffer(info *types.Info, b *ast.BlockStmt, cond ast.Expr) bool {
	if a.polarity(info, b, cond, 0) < 0 {
		return true
	}
	x, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || x.Op != token.LOR {
		return false
	}
	side := func(e ast.Expr) bool {
		if t, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && t.Op == token.EQL && (isNil(info, t.X) || isNil(info, t.Y)) {
			return true
		}
		return a.heldWhenDiffer(info, b, e)
	}
	return side(x.X) && side(x.Y)
}

// comparesState reports whether a condition compares two states the pass
// computed, not only the primary object's own: two values of which neither
// is a constant, the length of a local value (a difference computed:
// len(diff) == 0), a bool function handed two values of one type (an
// equality helper), or a bool local the body assigns from one of those
// (changed := !equal(a, b)). A field of an object tested against a
// constant is a state the object is in, not a difference; an object's
// name or namespace compared with another value asks which object this is.
func comparesState(info *types.Info, b *ast.BlockStmt, kind *types.Named, cond ast.Expr) bool {
	found := false
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BinaryExpr:
				switch n.Op {
				case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
					x, y := n.X, n.Y
					if isConst(info, x) {
						x, y = y, x
					}
					switch {
					case isConst(info, x):
					case !isConst(info, y):
						// A test of which object this is (its name or
						// namespace against another) is a filter.
						found = comparedValue(info, x) && comparedValue(info, y) && !primaryOnly(info, b, kind, n, 0, true) && !readsIdentity(info, x) && !readsIdentity(info, y)
					default:
						found = lengthOfLocal(info, b, x)
					}
				}
			case *ast.CallExpr:
				if t, ok := info.TypeOf(n).(*types.Basic); ok && t.Kind() == types.Bool && len(n.Args) >= 2 {
					x, y := info.TypeOf(n.Args[0]), info.TypeOf(n.Args[1])
					found = x != nil && y != nil && types.Identical(x, y) && comparedValue(info, n.Args[0]) && !primaryOnly(info, b, kind, n, 0, true)
				}
			case *ast.Ident:
				if v := localBool(info, n); v != nil && depth == 0 {
					for _, r := range assignmentsTo(info, b, v) {
						visit(r, depth+1)
					}
				}
			}
			return !found
		})
	}
	visit(cond, 0)
	return found
}

// lengthOfLocal reports whether e is len of a local variable or parameter
// (not of a field of an object), written there or handed back by every
// return of a function literal called there (calledLiteral: at once, or
// through the variable it is assigned to).
func lengthOfLocal(info *types.Info, body *ast.BlockStmt, e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	if lit := calledLiteral(info, body, c); lit != nil {
		results := literalResults(lit)
		for _, r := range results {
			if !lengthOfLocal(info, body, r) {
				return false
			}
		}
		return len(results) > 0
	}
	if len(c.Args) != 1 || !isBuiltin(info, c.Fun, "len") {
		return false
	}
	id, ok := ast.Unparen(c.Args[0]).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() != nil && v.Parent() != v.Pkg().Scope()
}
