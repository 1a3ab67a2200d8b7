package locate

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Which calls of a deletion branch run once the finalizer's removal is
// persisted (finalizer_cleanup.go): they are not the cleanup, which is the
// work done before the finalizer goes.

// afterRemoval reports whether pos runs only once one of the branch's
// removals of the finalizer has been persisted: after the write that
// persists it, in the block of fn holding that write (the handling of its
// failure, what follows it). A removal in memory (RemoveFinalizer, a list
// cut) is persisted by the first write after it in its block; a library
// call that removes it through its own body and may fail persists it
// itself. The work of the cleanup comes before: a cleanup between the
// removal in memory and its write (remove, clean up, update) is not after
// it. A closure of fn called where it stands is read as part of fn.
// onward says pos is in that block itself, not in a block nested in it
// (the handling of the write's failure): it runs once the removal is
// persisted.
func (a *analysis) afterRemoval(fn *ssa.Function, info *types.Info, branch ast.Node, pos token.Pos, removals []token.Pos) (after, onward bool) {
	for _, at := range removals {
		persist := a.persistingCall(fn, info, branch, at)
		if persist == nil || pos <= persist.End() {
			continue
		}
		if blk := a.blockOf(branch, persist.Pos()); blk != nil && pos < blk.End() {
			return true, a.blockOf(branch, pos) == blk
		}
	}
	return false, false
}

// removalsIn are where the branch of fn removes the finalizer: the
// removals written in it (or in a closure of fn there), and its calls of
// helpers that only remove it, or remove it and save the object.
func (a *analysis) removalsIn(fn *ssa.Function, branch ast.Node, kind *types.Named, removes []finOp) []token.Pos {
	var out []token.Pos
	for _, op := range removes {
		if op.pos >= branch.Pos() && op.pos < branch.End() && madeWithin(op.in, fn) {
			out = append(out, op.pos)
		}
	}
	for _, f := range append([]*ssa.Function{fn}, closuresOf(fn)...) {
		for _, c := range a.callsIn(f) {
			if c.expr.Pos() >= branch.Pos() && c.expr.End() <= branch.End() && len(c.own) > 0 && !c.known && a.removingHelper(c, kind, removes) {
				out = append(out, c.expr.Pos())
			}
		}
	}
	return out
}

// madeWithin reports whether f is fn or a closure fn makes.
func madeWithin(f, fn *ssa.Function) bool {
	for ; f != nil; f = f.Parent() {
		if f == fn {
			return true
		}
	}
	return false
}

// blockOf is the innermost block of the branch holding pos that is not in
// a closure of the branch (a closure is read as part of its maker).
func (a *analysis) blockOf(branch ast.Node, pos token.Pos) *ast.BlockStmt {
	var blk *ast.BlockStmt
	for _, n := range a.path(pos, pos) {
		switch x := n.(type) {
		case *ast.FuncLit:
			if x.Pos() >= branch.Pos() {
				blk = nil
			}
		case *ast.BlockStmt:
			if blk == nil && x.Pos() >= branch.Pos() {
				blk = x
			}
		}
	}
	return blk
}

// persistingCall is the call that persists a removal of the finalizer made
// at removal in fn (or a closure of it): the removal's own call when it is a
// library's that removes through its body and returns an error (it writes;
// one changing the list in memory returns nothing, or whether it changed
// it), else the first write after it in its block; nil when none is found
// there.
func (a *analysis) persistingCall(fn *ssa.Function, info *types.Info, branch ast.Node, removal token.Pos) *ast.CallExpr {
	blk := a.blockOf(branch, removal)
	if blk == nil {
		return nil
	}
	var first, call *ast.CallExpr
	for _, f := range append([]*ssa.Function{fn}, closuresOf(fn)...) {
		for _, c := range a.callsIn(f) {
			at := c.expr.Pos()
			if at <= removal && removal < c.expr.End() && (call == nil || at > call.Pos()) {
				call = nil
				if !c.known && mayFail(c.fn) && (len(c.own) == 0 || len(a.writeCalls(a.prog.Reachable(c.own...))) > 0) {
					call = c.expr // a removal that may fail and writes the object itself: a library's, or a helper's that saves it
				}
			}
			if at < removal || at >= blk.End() {
				continue
			}
			if _, ok := a.writeOf(info, c); ok && (first == nil || at < first.Pos()) {
				first = c.expr
			}
		}
	}
	if call != nil {
		return call
	}
	return first
}

// closuresOf are the closures fn makes, at any depth.
func closuresOf(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, anon := range fn.AnonFuncs {
		out = append(append(out, anon), closuresOf(anon)...)
	}
	return out
}

// mayFail reports whether a function's results include an error.
func mayFail(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	for i := 0; i < res.Len(); i++ {
		if isErrorType(res.At(i).Type()) {
			return true
		}
	}
	return false
}

// removingHelper reports whether a call of the tree's only removes the
// finalizer, or removes it and saves the object (removingSave).
func (a *analysis) removingHelper(c call, kind *types.Named, removes []finOp) bool {
	return a.removalOnly(c, removes) || a.removingSave(c, kind, removes)
}
