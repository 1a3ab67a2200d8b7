package locate

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// A flag the pass sets one way before a branch it does not take and the
// other way inside it (exists := true; if err != nil { if
// apierrors.IsNotFound(err) { exists = false } else { return err } }) holds,
// after it, the value of the way the pass goes: a test of it is decided
// as the branches before it are.

// settleFlags adds to taken, in each of fns, the tests of a bool that
// holds a constant on every edge the pass can come by, the branches in
// taken followed their way only; decided tests settle later ones in turn.
func settleFlags(taken map[*ssa.BasicBlock]int, fns []*ssa.Function) {
	for _, fn := range fns {
		for changed := true; changed; {
			changed = false
			live := liveBlocks(fn, taken)
			for _, b := range fn.Blocks {
				if _, ok := taken[b]; ok || !live[b] {
					continue
				}
				if way, ok := flagWay(b, live, taken); ok {
					taken[b] = way
					changed = true
				}
			}
		}
	}
}

// liveBlocks is the blocks of fn a path from its entry reaches, the
// branches in taken followed their way only.
func liveBlocks(fn *ssa.Function, taken map[*ssa.BasicBlock]int) map[*ssa.BasicBlock]bool {
	live := map[*ssa.BasicBlock]bool{}
	if len(fn.Blocks) == 0 {
		return live
	}
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if live[b] {
			continue
		}
		live[b] = true
		if i, ok := taken[b]; ok && i < len(b.Succs) {
			stack = append(stack, b.Succs[i])
			continue
		}
		stack = append(stack, b.Succs...)
	}
	return live
}

// flagWay is the successor index the test b ends in goes to when it tests
// a phi of bool constants (or its negation) that agree on every edge the
// pass can come by.
func flagWay(b *ssa.BasicBlock, live map[*ssa.BasicBlock]bool, taken map[*ssa.BasicBlock]int) (int, bool) {
	ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return 0, false
	}
	cond, negated := ifs.Cond, false
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond, negated = not.X, true
	}
	phi, ok := cond.(*ssa.Phi)
	if !ok {
		return 0, false
	}
	value, seen := false, false
	for i, e := range phi.Edges {
		pred := phi.Block().Preds[i]
		if !live[pred] {
			continue
		}
		if w, ok := taken[pred]; ok && w < len(pred.Succs) && pred.Succs[w] != phi.Block() {
			continue
		}
		k, ok := e.(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool {
			return 0, false
		}
		v := constant.BoolVal(k.Value)
		if seen && v != value {
			return 0, false
		}
		value, seen = v, true
	}
	if !seen {
		return 0, false
	}
	if value != negated {
		return 0, true
	}
	return 1, true
}
