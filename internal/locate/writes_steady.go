package locate

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// steadyBranches decides, for the branches of the reached functions, the
// way a succeeding pass of an unchanged object takes them, where that is
// known without running it: in a closure the entry defers, a test of the
// entry's named error result against nil (a pass that succeeds returns a
// nil error); anywhere, a readiness predicate of the primary object (an
// unchanged object that reconciles without failing is ready: the
// knowledge table's RoleSteadyTest), or a test that the error of a call
// handing back an object of the primary kind says the API server holds no
// such object (RoleAbsentTest: an unchanged object exists). The map gives, for an If's block, the
// index of the successor taken.
func steadyBranches(entry *ssa.Function, kind *types.Named, fns []*ssa.Function) map[*ssa.BasicBlock]int {
	finalErr := deferredFinalError(entry)
	taken := map[*ssa.BasicBlock]int{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			cond, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			if v, ok := steadyValue(cond.Cond, finalErr, kind); ok {
				taken[b] = 1
				if v {
					taken[b] = 0
				}
			}
		}
	}
	return taken
}

// deferredFinalError finds the free variables, in the closures the entry
// defers, bound to the entry's named error result: read there, they hold
// the error the pass returns.
func deferredFinalError(entry *ssa.Function) map[*ssa.FreeVar]bool {
	out := map[*ssa.FreeVar]bool{}
	res := entry.Signature.Results()
	if res.Len() == 0 || !isErrorType(res.At(res.Len()-1).Type()) || res.At(res.Len()-1).Name() == "" {
		return out
	}
	named := res.At(res.Len() - 1)
	for _, b := range entry.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			mc, ok := d.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			fn, ok := mc.Fn.(*ssa.Function)
			if !ok {
				continue
			}
			for i, bound := range mc.Bindings {
				if al, ok := bound.(*ssa.Alloc); ok && al.Pos() == named.Pos() && i < len(fn.FreeVars) {
					out[fn.FreeVars[i]] = true
				}
			}
		}
	}
	return out
}

// steadyValue is the value a branch condition has on a succeeding pass of
// an unchanged object, when it is known.
func steadyValue(v ssa.Value, finalErr map[*ssa.FreeVar]bool, kind *types.Named) (bool, bool) {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.NOT {
			b, ok := steadyValue(x.X, finalErr, kind)
			return !b, ok
		}
	case *ssa.BinOp:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false, false
		}
		other := x.X
		if k, ok := x.X.(*ssa.Const); ok && k.IsNil() {
			other = x.Y
		} else if k, ok := x.Y.(*ssa.Const); !ok || !k.IsNil() {
			return false, false
		}
		load, ok := other.(*ssa.UnOp)
		if !ok || load.Op != token.MUL {
			return false, false
		}
		if fv, ok := load.X.(*ssa.FreeVar); ok && finalErr[fv] {
			return x.Op == token.EQL, true
		}
	case *ssa.Call:
		fn := calleeObj(&x.Call)
		if fn == nil {
			return false, false
		}
		f, ok := knowledge[funcKey(fn)]
		if ok && f.Role == RoleAbsentTest {
			return false, readsKind(callArgsSSA(&x.Call), f.Obj, kind)
		}
		if !ok || f.Role != RoleSteadyTest {
			return false, false
		}
		args := callArgsSSA(&x.Call)
		if f.Obj < 0 || f.Obj >= len(args) || !isKind(madeFrom(args[f.Obj]).Type(), kind) {
			return false, false
		}
		if f.Arg >= 0 && (f.Arg >= len(args) || !isReadyType(args[f.Arg])) {
			return false, false
		}
		return f.True, true
	}
	return false, false
}

// readsKind reports whether argument i is the error of a call handing
// back an object of the primary kind with it (obj, err := get(name)): an
// unchanged object exists, so that error is never its absence.
func readsKind(args []ssa.Value, i int, kind *types.Named) bool {
	if i < 0 || i >= len(args) {
		return false
	}
	e, ok := madeFrom(args[i]).(*ssa.Extract)
	if !ok {
		return false
	}
	call, ok := e.Tuple.(*ssa.Call)
	if !ok {
		return false
	}
	res, ok := call.Type().(*types.Tuple)
	return ok && res.Len() == 2 && e.Index == 1 && isKind(res.At(0).Type(), kind)
}

// isReadyType reports whether a condition type argument is the readiness
// type, "Ready".
func isReadyType(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.String && constant.StringVal(k.Value) == readyConditionType
}

// madeFrom is the value an interface is made from, or v.
func madeFrom(v ssa.Value) ssa.Value {
	if mi, ok := v.(*ssa.MakeInterface); ok {
		return mi.X
	}
	return v
}
