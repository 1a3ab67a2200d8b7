package locate

import (
	"strings"

	"golang.org/x/tools/go/ssa"
)

// valueBuiltins are the builtins that only compute a value: they change
// nothing that exists before the call.
var valueBuiltins = map[string]bool{
	"append": true, "cap": true, "complex": true, "imag": true, "len": true,
	"make": true, "max": true, "min": true, "new": true, "real": true,
}

// computesOnly reports whether a call of the tree only computes a value (a
// helper returning a constant, a field of its argument, the function it is
// handed): what it runs, its callees of the tree included, calls no function
// outside the tree, sends nothing, starts nothing, and stores only into memory
// it allocates itself. Such a call does no work on the cluster or on the
// controller's state: it is never a cleanup. Nor is a deep copy (the
// DeepCopy, DeepCopyInto and DeepCopyObject methods deepcopy-gen writes),
// which fills only the copy it makes or is handed.
func (a *analysis) computesOnly(c call) bool {
	if len(c.own) == 0 {
		return false
	}
	seen := map[*ssa.Function]bool{}
	for _, fn := range c.own {
		if fn.Signature.Recv() != nil && strings.HasPrefix(fn.Name(), "DeepCopy") {
			continue
		}
		if !a.pureFunc(fn, seen) {
			return false
		}
	}
	return true
}

// pureFunc is computesOnly for one function, seen holding those already
// read (a recursion is pure when the rest is).
func (a *analysis) pureFunc(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if seen[fn] {
		return true
	}
	seen[fn] = true
	if len(fn.Blocks) == 0 || !a.prog.Own[fn] && (fn.Origin() == nil || !a.prog.Own[fn.Origin()]) {
		return false
	}
	for _, anon := range fn.AnonFuncs {
		if !a.pureFunc(anon, seen) {
			return false
		}
	}
	for _, blk := range fn.Blocks {
		for _, ins := range blk.Instrs {
			switch ins := ins.(type) {
			case *ssa.MapUpdate, *ssa.Send, *ssa.Go, *ssa.Defer, *ssa.Select:
				return false
			case *ssa.Store:
				if !allocatedIn(ins.Addr, fn) {
					return false
				}
			case *ssa.Call:
				com := ins.Common()
				if b, ok := com.Value.(*ssa.Builtin); ok {
					if !valueBuiltins[b.Name()] {
						return false
					}
					continue
				}
				callee := com.StaticCallee()
				if callee == nil || !a.pureFunc(callee, seen) {
					return false
				}
			}
		}
	}
	return true
}

// allocatedIn reports whether an address is in memory fn allocates (a field
// or element of its own variable or composite literal).
func allocatedIn(addr ssa.Value, fn *ssa.Function) bool {
	for {
		switch x := addr.(type) {
		case *ssa.Alloc:
			return x.Parent() == fn
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		default:
			return false
		}
	}
}

// changesOwnState reports whether a function changes, in the tree's own
// code, state that outlives the call: it updates or deletes from a map it
// did not make, stores into memory it did not allocate (its receiver's
// fields, a package variable), or sends on a channel, itself or through
// the tree's functions it reaches. What dependencies do (a logger's
// output, a metric) is not asked.
func (a *analysis) changesOwnState(fn *ssa.Function) bool {
	for _, f := range a.prog.Reachable(fn).Funcs() {
		if !a.prog.Own[f] && (f.Origin() == nil || !a.prog.Own[f.Origin()]) {
			continue
		}
		for _, blk := range f.Blocks {
			for _, ins := range blk.Instrs {
				switch ins := ins.(type) {
				case *ssa.Send:
					return true
				case *ssa.MapUpdate:
					if !madeIn(ins.Map, f) {
						return true
					}
				case *ssa.Store:
					if !allocatedIn(ins.Addr, f) {
						return true
					}
				case *ssa.Call:
					if b, ok := ins.Common().Value.(*ssa.Builtin); ok && b.Name() == "delete" && !madeIn(ins.Common().Args[0], f) {
						return true
					}
				}
			}
		}
	}
	return false
}

// madeIn reports whether a map value is one fn makes itself.
func madeIn(m ssa.Value, fn *ssa.Function) bool {
	mm, ok := m.(*ssa.MakeMap)
	return ok && mm.Parent() == fn
}
