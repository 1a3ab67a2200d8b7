package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// maxBranchHelpers bounds the calls a branch guarded by a comparison is
// followed through to what it does.
const maxBranchHelpers = 2

// ownHelper is the function of the tree's own a call runs statically (not
// a closure, not through an interface or a func value), or nil.
func ownHelper(c call) *ssa.Function {
	if len(c.own) > 0 && !c.known && !dynamicCall(&c) && c.own[0].Parent() == nil {
		return c.own[0]
	}
	return nil
}

// returnedCalls are the calls (by Lparen) whose result b hands back as
// it is: a return's result (return helper(…), return ctrl.Result{},
// helper(…)), or a value assigned to a named result, which a bare return
// hands back (res, err = ctrl.Result{}, helper(…); return, or res, err =
// helper(…)), and the call an error wrapper that keeps nil nil is handed
// there (return wrap(helper(…))). The function literals b holds are left
// out.
func (a *analysis) returnedCalls(info *types.Info, b *ast.BlockStmt) map[token.Pos]bool {
	out := map[token.Pos]bool{}
	add := func(e ast.Expr) {
		if ce, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			out[ce.Lparen] = true
			if ce, ok := ast.Unparen(a.unwrapError(nil, info, ce)).(*ast.CallExpr); ok {
				out[ce.Lparen] = true
			}
		}
	}
	if b == nil || info == nil {
		return out
	}
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, res := range n.Results {
				add(res)
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok && v.Kind() == types.ResultVar {
						// res, err = helper(…) assigns the results
						// of one call.
						add(n.Rhs[min(i, len(n.Rhs)-1)])
					}
				}
			}
		}
		return true
	})
	return out
}

// branchDoes reports whether does holds of a branch of the function body
// fnBody, or of the body of a function of the tree's own whose result it
// hands back (returnedCalls: a branch extracted into a helper) or, when
// its body is one call it hands on, that it calls as a statement
// (statementCalls: if err := r.remove(…); err != nil), to
// maxBranchHelpers helpers deep, or of a function literal whose result it
// hands back (branchLiteral), which is read as part of the branch. A
// closure the branch makes is part of its syntax.
func (a *analysis) branchDoes(info *types.Info, fnBody, b *ast.BlockStmt, does func(*types.Info, *ast.BlockStmt) bool) bool {
	seen := map[*ast.BlockStmt]bool{}
	var in func(info *types.Info, fnBody, b *ast.BlockStmt, lits map[*types.Var]*ast.FuncLit, depth int) bool
	in = func(info *types.Info, fnBody, b *ast.BlockStmt, lits map[*types.Var]*ast.FuncLit, depth int) bool {
		if b == nil || info == nil || seen[b] {
			return false
		}
		seen[b] = true
		if does(info, b) {
			return true
		}
		handed := a.returnedCalls(info, b)
		statements := statementCalls(b)
		found := false
		ast.Inspect(b, func(n ast.Node) bool {
			ce, ok := n.(*ast.CallExpr)
			if !ok || found || !handed[ce.Lparen] && !statements[ce.Lparen] {
				return !found
			}
			c := a.makeCall(info, ce, nil)
			if !handed[ce.Lparen] {
				// A helper called as a statement is read as if
				// inline when its body is one call it hands on.
				if h := ownHelper(c); h == nil || forwardCall(body(h)) == nil {
					return true
				}
			}
			if lit := a.branchLiteral(info, fnBody, ce, c, lits); lit != nil {
				found = in(a.infoAt(lit.Pos()), fnBody, lit.Body, lits, depth)
			} else if h := ownHelper(c); h != nil && depth < maxBranchHelpers {
				// The literals handed to the helper are what its
				// parameters hold.
				held := map[*types.Var]*ast.FuncLit{}
				params := h.Signature.Params()
				for i, arg := range ce.Args {
					if i < params.Len() {
						if lit := literalOf(info, fnBody, arg, lits); lit != nil {
							held[params.At(i)] = lit
						}
					}
				}
				found = in(a.infoAt(posOf(h)), body(h), body(h), held, depth+1)
			}
			return !found
		})
		return found
	}
	return in(info, fnBody, b, nil, 0)
}

// statementCalls are the calls (by Lparen) b makes as statements of its
// own: h(…), err := h(…), if err := h(…); err != nil. The function
// literals b holds are left out.
func statementCalls(b *ast.BlockStmt) map[token.Pos]bool {
	out := map[token.Pos]bool{}
	add := func(e ast.Expr) {
		if ce, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			out[ce.Lparen] = true
		}
	}
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ExprStmt:
			add(n.X)
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				add(n.Rhs[0])
			}
		}
		return true
	})
	return out
}

// branchLiteral is the function literal a call of a branch runs: called
// where it stands, through the local variable fnBody assigns it to, through
// a parameter the caller handed it to (lits), or the closure the call runs
// by the call graph (handed through a function of the tree's that hands
// back the function it is given).
func (a *analysis) branchLiteral(info *types.Info, fnBody *ast.BlockStmt, ce *ast.CallExpr, c call, lits map[*types.Var]*ast.FuncLit) *ast.FuncLit {
	if lit := literalOf(info, fnBody, ce.Fun, lits); lit != nil {
		return lit
	}
	if runsFuncValue(c) {
		lit, _ := c.own[0].Syntax().(*ast.FuncLit)
		return lit
	}
	return nil
}

// runsFuncValue reports whether a call of a function value (a variable,
// a parameter, what a call hands back; not a method or a field named by a
// selector) runs one closure by the call graph.
func runsFuncValue(c call) bool {
	if _, sel := ast.Unparen(c.expr.Fun).(*ast.SelectorExpr); sel {
		return false
	}
	return len(c.own) == 1 && c.own[0].Parent() != nil
}

// literalOf is the function literal e is: written there, held by a
// parameter in lits, or the one fnBody assigns to the local variable e.
func literalOf(info *types.Info, fnBody *ast.BlockStmt, e ast.Expr, lits map[*types.Var]*ast.FuncLit) *ast.FuncLit {
	switch e := ast.Unparen(e).(type) {
	case *ast.FuncLit:
		return e
	case *ast.Ident:
		v, ok := info.Uses[e].(*types.Var)
		if !ok || v.IsField() {
			return nil
		}
		if lit := lits[v]; lit != nil {
			return lit
		}
		if fnBody == nil {
			return nil
		}
		if rhs := assignmentsTo(info, fnBody, v); len(rhs) == 1 {
			lit, _ := ast.Unparen(rhs[0]).(*ast.FuncLit)
			return lit
		}
	}
	return nil
}
