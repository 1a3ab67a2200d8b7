package callgraph

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A closure exists only once the function making it has run. One that
// function only hands to calls (a retry helper handed func() error { … },
// run while the helper runs) cannot outlive that function's call: it runs
// only when the function making it runs. The call graph has one node per
// parameter of a shared helper, so every closure any caller hands the
// helper appears as a callee of the helper's call of its parameter; a walk
// from an entry would reach the closures of callers it never reaches. Such
// closures are entered only from the function that makes them (handedOn),
// never by a call edge.

// confinedClosures returns the own closures that never outlive the call of
// the function making them (confined).
func (pr *Program) confinedClosures() map[*ssa.Function]bool {
	out := map[*ssa.Function]bool{}
	for f := range pr.Own {
		if f.Parent() != nil && pr.isConfined(f) {
			out[f] = true
		}
	}
	return out
}

// isConfined reports whether every value of the closure c made in its
// parent is only run or handed to calls that only run it.
func (pr *Program) isConfined(c *ssa.Function) bool {
	refs := c.Referrers()
	if refs == nil {
		return false
	}
	seen := map[ssa.Value]bool{}
	for _, r := range *refs {
		if mc, ok := r.(*ssa.MakeClosure); ok && mc.Fn == c {
			if !pr.onlyRun(mc, seen) {
				return false
			}
			continue
		}
		if !pr.usedOnlyToRun(c, r, seen) {
			return false
		}
	}
	return true
}

// onlyRun reports whether a function value is only called, or handed to
// calls that only call it: never stored, returned, made an interface or merged
// with another value, and never handed to an unknown callee (an interface
// method, a function value) that might keep it. A library function handed
// it (wait.ExponentialBackoff(b, fn)) runs it and keeps it no longer.
func (pr *Program) onlyRun(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if !pr.usedOnlyToRun(v, r, seen) {
			return false
		}
	}
	return true
}

// usedOnlyToRun reports whether the instruction r uses the function value
// v only to run it: calling it, handing it to a call that only runs it,
// or binding it into a closure that only runs it and itself only runs.
func (pr *Program) usedOnlyToRun(v ssa.Value, r ssa.Instruction, seen map[ssa.Value]bool) bool {
	switch r := r.(type) {
	case *ssa.DebugRef:
		return true
	case *ssa.ChangeType:
		// A conversion to a named func type (wait.ConditionFunc(fn)).
		return pr.onlyRun(r, seen)
	case *ssa.Store:
		// A parameter a closure captures is kept in a cell of its own.
		cell, ok := r.Addr.(*ssa.Alloc)
		return ok && r.Val == v && pr.cellOnlyRun(cell, seen)
	case *ssa.MakeClosure:
		i := slices.Index(r.Bindings, v)
		fn, ok := r.Fn.(*ssa.Function)
		if i < 0 || !ok || i >= len(fn.FreeVars) {
			return false
		}
		return pr.onlyRun(fn.FreeVars[i], seen) && pr.onlyRun(r, seen)
	case ssa.CallInstruction:
		common := r.Common()
		if common.Value == v && !common.IsInvoke() && !slices.Contains(common.Args, v) {
			return true
		}
		i := slices.Index(common.Args, v)
		callee := common.StaticCallee()
		if i < 0 || callee == nil {
			return false
		}
		if pr.unanalysed(callee) {
			return false // an own function whose body was left out
		}
		if len(callee.Blocks) == 0 {
			return true // a library function runs it while it runs
		}
		if i >= len(callee.Params) {
			return false
		}
		return pr.onlyRun(callee.Params[i], seen)
	}
	return false
}

// cellOnlyRun reports whether the variable at addr (a captured variable's
// cell, or a closure's free variable bound to one) is only read to run
// its value, written, or captured by closures that only run.
func (pr *Program) cellOnlyRun(addr ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[addr] {
		return true
	}
	seen[addr] = true
	refs := addr.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.Store:
			if r.Addr != addr {
				return false // the cell's address itself is stored
			}
		case *ssa.UnOp:
			if r.Op != token.MUL || !pr.onlyRun(r, seen) {
				return false
			}
		case *ssa.MakeClosure:
			i := slices.Index(r.Bindings, addr)
			fn, ok := r.Fn.(*ssa.Function)
			if i < 0 || !ok || i >= len(fn.FreeVars) || !pr.cellOnlyRun(fn.FreeVars[i], seen) || !pr.onlyRun(r, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}
