package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Which way a guard that ends the pass idle reads, through the predicates
// of the tree's own it calls: a branch that leaves where the states
// differ (if !isMine(obj) { return nil }, isMine answering true where a
// value equals the controller's own) lets the writes after it run only
// where they are equal, which applies no difference.

// maxLeaveDepth bounds the predicates a guard is read through.
const maxLeaveDepth = 2

// leavePolarity is polarity, read also through the predicates of the
// tree's own a condition calls (predicatePolarity), to maxLeaveDepth.
func (a *analysis) leavePolarity(info *types.Info, body *ast.BlockStmt, e ast.Expr, depth int) int {
	if p := a.polarity(info, body, e, 0); p != 0 || depth >= maxLeaveDepth {
		return p
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return -a.leavePolarity(info, body, x.X, depth)
		}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			l, r := a.leavePolarity(info, body, x.X, depth), a.leavePolarity(info, body, x.Y, depth)
			if l == r && !(x.Op == token.LOR && l > 0) {
				return l
			}
		}
	case *ast.CallExpr:
		if h := ownHelper(a.makeCall(info, x, nil)); h != nil && firstResultBool(h) {
			return a.predicatePolarity(h, depth+1)
		}
	}
	return 0
}

// predicatePolarity says which way a predicate of the tree's own answers:
// 1 when it answers true where values are equal, -1 where they differ, 0
// when not known. Each of its returns counts that reads one way: a
// constant handed back from the branch of an if (true where the condition
// holds: its polarity; false: the opposite), or a value that reads one
// way; a return after every if (the default answer) and one that reads
// no way are left out, and two that disagree make it unknown.
func (a *analysis) predicatePolarity(fn *ssa.Function, depth int) int {
	b := body(fn)
	if b == nil {
		return 0
	}
	info := a.infoAt(b.Pos())
	if info == nil {
		return 0
	}
	parents := parentsIn(b)
	p := 0
	agree := true
	returnsOf(b, func(r *ast.ReturnStmt) {
		if len(r.Results) == 0 {
			return
		}
		res := r.Results[0]
		q := 0
		if tv := info.Types[ast.Unparen(res)]; tv.Value != nil && tv.Value.Kind() == constant.Bool {
			if ifs, sign := enclosingIf(parents, r); ifs != nil {
				q = sign * a.leavePolarity(info, b, ifs.Cond, depth)
				if !constant.BoolVal(tv.Value) {
					q = -q
				}
			}
		} else {
			q = a.leavePolarity(info, b, res, depth)
		}
		switch {
		case q == 0:
		case p == 0:
			p = q
		case p != q:
			agree = false
		}
	})
	if !agree {
		return 0
	}
	return p
}

// enclosingIf is the innermost if holding n in its branch (sign 1) or its
// else (sign -1), or nil.
func enclosingIf(parents map[ast.Node]ast.Node, n ast.Node) (*ast.IfStmt, int) {
	for child, p := n, parents[n]; p != nil; child, p = p, parents[p] {
		if ifs, ok := p.(*ast.IfStmt); ok {
			switch child {
			case ifs.Body:
				return ifs, 1
			case ifs.Else:
				return ifs, -1
			}
		}
	}
	return nil, 0
}

// tupleEndsIdle reports whether a call whose results a return hands back
// whole (return helper(…)) hands back no failure: its last result is no
// error, or the tree's own function it runs never fails (failsNever).
func (a *analysis) tupleEndsIdle(info *types.Info, fn *ssa.Function, e ast.Expr, tuple *types.Tuple) bool {
	if tuple.Len() == 0 || !isErrorType(tuple.At(tuple.Len()-1).Type()) {
		return true
	}
	ce, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	h := ownHelper(a.makeCall(info, ce, fn))
	return h != nil && a.failsNever(h, map[*ssa.Function]bool{h: true})
}

// failsNever reports whether every return of fn hands back the nil error
// constant, itself or as a delegate's (delegateOf) that does; on holds the
// functions being read.
func (a *analysis) failsNever(fn *ssa.Function, on map[*ssa.Function]bool) bool {
	rets := blockReturns(fn)
	for _, r := range rets {
		if k, ok := storedResult(r, r.Results[len(r.Results)-1]).(*ssa.Const); ok && k.IsNil() {
			continue
		}
		d := a.delegateOf(r)
		if d == nil || on[d] || !a.prog.Own[d] {
			return false
		}
		on[d] = true
		ok := a.failsNever(d, on)
		delete(on, d)
		if !ok {
			return false
		}
	}
	return len(rets) > 0
}
