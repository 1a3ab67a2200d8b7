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
// hands back (res, err = ctrl.Result{}, helper(…); return). The function
// literals b holds are left out.
func returnedCalls(info *types.Info, b *ast.BlockStmt) map[token.Pos]bool {
	out := map[token.Pos]bool{}
	add := func(e ast.Expr) {
		if ce, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			out[ce.Lparen] = true
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
			if len(n.Lhs) != len(n.Rhs) {
				return true
			}
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok {
					if v, ok := info.Uses[id].(*types.Var); ok && v.Kind() == types.ResultVar {
						add(n.Rhs[i])
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
// hands back (returnedCalls: a branch extracted into a helper), or of a
// function literal whose result it hands back (called where it stands, or
// through the local variable fnBody assigns it to: calledLiteral), to
// maxBranchHelpers calls deep. A closure the branch makes is part of its
// syntax.
func (a *analysis) branchDoes(info *types.Info, fnBody, b *ast.BlockStmt, does func(*types.Info, *ast.BlockStmt) bool) bool {
	seen := map[*ast.BlockStmt]bool{}
	var in func(info *types.Info, fnBody, b *ast.BlockStmt, depth int) bool
	in = func(info *types.Info, fnBody, b *ast.BlockStmt, depth int) bool {
		if b == nil || info == nil || seen[b] {
			return false
		}
		seen[b] = true
		if does(info, b) {
			return true
		}
		if depth == maxBranchHelpers {
			return false
		}
		handed := returnedCalls(info, b)
		found := false
		ast.Inspect(b, func(n ast.Node) bool {
			if ce, ok := n.(*ast.CallExpr); ok && !found && handed[ce.Lparen] {
				if lit := calledLiteral(info, fnBody, ce); lit != nil {
					found = in(info, fnBody, lit.Body, depth+1)
				} else if h := ownHelper(a.makeCall(info, ce, nil)); h != nil {
					found = in(a.infoAt(posOf(h)), body(h), body(h), depth+1)
				}
			}
			return !found
		})
		return found
	}
	return in(info, fnBody, b, 0)
}
