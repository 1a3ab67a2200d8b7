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

// appliesDesired reports whether a call writes desired state to the
// cluster: a write that is not an event, not of a status, and not of an
// object of the tree's own primary kind (writesOwnKind).
func (a *analysis) appliesDesired(info *types.Info, c call, kind *types.Named) bool {
	w, ok := a.writeOf(info, c)
	return ok && w.verb != "" && !(c.known && c.fact.Role == RoleEvent) && !w.status && !a.writesOwnKind(info, c, kind)
}

// guardedWrite is the first write of desired state made by fn's calls
// between from and to (a branch, or the statements after it), or in the
// body of a function such a call runs as part of that code (branchCallee),
// to maxBranchHelpers calls deep. A helper whose result fn's code returns
// is followed only when that code is the branch (inBranch): the
// statements after a branch that ends the pass are the rest of the pass,
// not what the comparison guards, once they hand it to another function.
func (a *analysis) guardedWrite(fn *ssa.Function, from, to token.Pos, inBranch bool, kind *types.Named) *call {
	seen := map[*ssa.Function]bool{fn: true}
	var in func(f *ssa.Function, depth int) *call
	in = func(f *ssa.Function, depth int) *call {
		info := a.infoAt(posOf(f))
		var handed map[token.Pos]bool
		if f != fn || inBranch {
			handed = returnedCalls(info, body(f))
		}
		for _, c := range a.callsIn(f) {
			if f == fn && (c.expr.Pos() < from || c.expr.End() > to) {
				continue
			}
			if a.appliesDesired(info, c, kind) {
				return &c
			}
			if depth == maxBranchHelpers {
				continue
			}
			if callee := branchCallee(c, f, handed); callee != nil && !seen[callee] {
				seen[callee] = true
				if w := in(callee, depth+1); w != nil {
					return w
				}
			}
		}
		return nil
	}
	return in(fn, 0)
}

// branchCallee is the function whose body a call made in fn runs as part
// of fn's own code: a closure of fn, called at once or through the
// variable it is assigned to (the call names the closure of every
// instance of a generic function: fn's own is the one), or a function of
// the tree's own called statically whose result a return hands back (its
// Lparen in handed): a branch extracted into a helper, which does the
// branch's work where it stood. A helper called for a part of the work
// (a list of objects deleted on the way to another end) is not followed.
func branchCallee(c call, fn *ssa.Function, handed map[token.Pos]bool) *ssa.Function {
	for _, own := range c.own {
		if own.Parent() == fn {
			return own
		}
	}
	if handed[c.expr.Lparen] {
		return ownHelper(c)
	}
	return nil
}

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

// branchDoes reports whether does holds of a branch, or of the body of a
// function of the tree's own whose result it hands back (returnedCalls: a
// branch extracted into a helper), to maxBranchHelpers calls deep. A closure the branch
// makes is part of its syntax.
func (a *analysis) branchDoes(info *types.Info, b *ast.BlockStmt, does func(*types.Info, *ast.BlockStmt) bool) bool {
	seen := map[*ast.BlockStmt]bool{}
	var in func(info *types.Info, b *ast.BlockStmt, depth int) bool
	in = func(info *types.Info, b *ast.BlockStmt, depth int) bool {
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
				if h := ownHelper(a.makeCall(info, ce, nil)); h != nil {
					found = in(a.infoAt(posOf(h)), body(h), depth+1)
				}
			}
			return !found
		})
		return found
	}
	return in(info, b, 0)
}
