package locate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A client-go worker that re-adds the key after a delay under a test of
// what the sync handed back (syncAgain, err := c.sync(key); … else if err
// == nil && !syncAgain { Forget } else { AddAfter(key, d) }) waits there
// on every pass only if the sync's steady end asks for it. The sync's
// success end (successEnd) hands back constants; run with them, the
// worker's tests after the call decide whether the pass reaches the
// AddAfter. When it does not, the AddAfter waits on something a pass that
// did work asked for (a child just made): a dependency-wait, and the
// steady state is event-driven. A variable the path stores the sync's
// values in (a captured err = syncErr) holds them.

// steadySyncSkips reports whether, in the worker fn, the path after its
// call of the sync (f.entry), taking each test with the values the sync's
// success end hands back, returns without reaching the call at. Every
// test on the way must be decided by those values.
func (a *analysis) steadySyncSkips(f *found, fn *ssa.Function, at *ast.CallExpr, kind *types.Named) bool {
	end := a.successEnd(f.entry, kind)
	if end == nil {
		return false
	}
	ret := ssaReturnAt(f.entry, end)
	if ret == nil {
		return false
	}
	var sync *ssa.Call
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(*ssa.Call); ok && c.Call.StaticCallee() == f.entry {
				if sync != nil {
					return false // called twice: which call's values reach the test is not followed
				}
				sync = c
			}
		}
	}
	if sync == nil {
		return false
	}
	// stored is what the path stored last in each variable (a captured
	// one, err = syncErr, is read back through its address).
	stored := map[ssa.Value]ssa.Value{}
	steady := func(v ssa.Value) (ssa.Value, bool) {
		for load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL && stored[load.X] != nil; load, ok = v.(*ssa.UnOp) {
			v = stored[load.X]
		}
		x, ok := v.(*ssa.Extract)
		if !ok || x.Tuple != sync || x.Index >= len(ret.Results) {
			return nil, false
		}
		k, ok := resultOf(ret, x.Index).(*ssa.Const)
		return k, ok
	}
	seen := map[*ssa.BasicBlock]bool{}
	for b := sync.Block(); ; {
		if seen[b] {
			return false // a loop
		}
		seen[b] = true
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok && c.Common().Pos() == at.Lparen {
				return false
			}
			if st, ok := instr.(*ssa.Store); ok {
				stored[st.Addr] = st.Val
			}
		}
		switch last := b.Instrs[len(b.Instrs)-1].(type) {
		case *ssa.Return:
			return true
		case *ssa.If:
			holds, ok := decided(last.Cond, steady)
			if !ok {
				return false
			}
			b = b.Succs[1]
			if holds {
				b = b.Succs[0]
			}
		case *ssa.Jump:
			b = b.Succs[0]
		default:
			return false // a panic, or a block that does not end a path ctrlcmp reads
		}
	}
}

// decided is the value of a test given the constants steady knows for
// some values: a bool, a comparison of an error with nil, their negation.
func decided(v ssa.Value, steady func(ssa.Value) (ssa.Value, bool)) (holds, ok bool) {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			h, ok := decided(x.X, steady)
			return !h, ok
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		other := x.X
		if k, isConst := x.X.(*ssa.Const); isConst && k.IsNil() {
			other = x.Y
		} else if k, isConst := x.Y.(*ssa.Const); !isConst || !k.IsNil() {
			return false, false
		}
		k, known := steady(other)
		if !known {
			return false, false
		}
		isNil := k.(*ssa.Const).IsNil()
		return isNil == (x.Op == token.EQL), true
	}
	if k, known := steady(v); known {
		if c := k.(*ssa.Const); c.Value != nil && c.Value.Kind() == constant.Bool {
			return constant.BoolVal(c.Value), true
		}
	}
	return false, false
}
