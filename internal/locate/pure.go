package locate

import (
	"go/token"
	"go/types"
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
// handed, a patch rendered from two objects) or only logs (a helper that
// spells out log.V(1).Info with the object's name): what it runs, its
// callees of the tree included, calls no function outside the tree but
// those of the knowledge table that only render text or bytes, make or
// wrap an error, read an object's name or log (computingRoles), sends
// nothing, starts nothing, and stores only into memory it allocates
// itself (a map included: one it makes and fills). Such a call does no
// work on the cluster or on the controller's state: it is never a cleanup.
// Nor is a deep copy (the DeepCopy, DeepCopyInto and DeepCopyObject
// methods deepcopy-gen writes), which fills only the copy it makes or is
// handed.
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

// computingRoles are the knowledge table's roles of library functions
// that change nothing the controller or the cluster holds.
var computingRoles = map[Role]bool{
	RoleFormat: true, RoleNewError: true, RoleWrapError: true,
	RoleMetaGet: true, RoleLog: true, RoleLogError: true, RoleMetric: true,
	RoleValue: true,
}

// pureFunc is computesOnly for one function, seen holding those already
// read (a recursion is pure when the rest is).
func (a *analysis) pureFunc(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	return a.callsOnly(fn, seen, allocatedIn, func(com *ssa.CallCommon) bool {
		return computingRoles[a.libraryRole(com)]
	})
}

// libraryRole is the knowledge table's role of the library function a call
// runs (an interface's method read as metav1.Object's, see objectMethod).
func (a *analysis) libraryRole(com *ssa.CallCommon) Role {
	callee := com.Method
	if sc := com.StaticCallee(); sc != nil {
		callee, _ = sc.Object().(*types.Func)
	} else if com.IsInvoke() {
		callee = a.objectMethod(callee, com.Value.Type())
	}
	if callee == nil {
		return roleNone
	}
	return knowledge[funcKey(callee)].Role
}

// marksObjectOnly reports whether a call of the tree's changes nothing but
// the primary object it is handed, in memory: a condition helper that
// stores iss.Status.Conditions[i] = c with the clock's time, logging. It
// sends, starts and writes nothing, and stores only into memory it
// allocates or that an object of the kind handed to it holds.
func (a *analysis) marksObjectOnly(c call, kind *types.Named) bool {
	if len(c.own) == 0 || kind == nil {
		return false
	}
	held := func(addr ssa.Value, fn *ssa.Function) bool {
		return allocatedIn(addr, fn) || heldByKind(addr, kind)
	}
	library := func(com *ssa.CallCommon) bool {
		role := a.libraryRole(com)
		return computingRoles[role] || role == RoleClock || role == RoleConditionSet
	}
	seen := map[*ssa.Function]bool{}
	for _, fn := range c.own {
		if !a.callsOnly(fn, seen, held, library) {
			return false
		}
	}
	return true
}

// heldByKind reports whether an address lies in what a parameter holding
// an object of the kind (or its status) points to: a field, an element of
// a slice held there.
func heldByKind(addr ssa.Value, kind *types.Named) bool {
	for {
		switch x := addr.(type) {
		case *ssa.Parameter:
			return embedsKind(x.Type(), kind, 0) || isStatusOf(kind, x.Type())
		case *ssa.FieldAddr:
			addr = x.X
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			addr = x.X
		default:
			return false
		}
	}
}

// callsOnly reports whether a function of the tree sends nothing, starts
// nothing, defers nothing, stores only where mayStore lets it (and into
// maps it makes), and calls only builtins that compute a value, functions
// of the tree of which the same holds, and functions outside the tree that
// library accepts; seen holds the functions already read (a recursion
// holds when the rest does).
func (a *analysis) callsOnly(fn *ssa.Function, seen map[*ssa.Function]bool, mayStore func(ssa.Value, *ssa.Function) bool, library func(*ssa.CallCommon) bool) bool {
	if seen[fn] {
		return true
	}
	seen[fn] = true
	if len(fn.Blocks) == 0 || !a.inTree(fn) {
		return false
	}
	for _, anon := range fn.AnonFuncs {
		if !a.callsOnly(anon, seen, mayStore, library) {
			return false
		}
	}
	for _, blk := range fn.Blocks {
		for _, ins := range blk.Instrs {
			switch ins := ins.(type) {
			case *ssa.Send, *ssa.Go, *ssa.Defer, *ssa.Select:
				return false
			case *ssa.MapUpdate:
				if !madeIn(ins.Map, fn) {
					return false
				}
			case *ssa.Store:
				if !mayStore(ins.Addr, fn) {
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
				if callee := com.StaticCallee(); callee != nil && a.inTree(callee) {
					if !a.callsOnly(callee, seen, mayStore, library) {
						return false
					}
					continue
				}
				if !library(com) {
					return false
				}
			}
		}
	}
	return true
}

// inTree reports whether a function is the tree's own code (an
// instantiation of a generic function of the tree included).
func (a *analysis) inTree(fn *ssa.Function) bool {
	return a.prog.Own[fn] || fn.Origin() != nil && a.prog.Own[fn.Origin()]
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
		if !a.inTree(f) {
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

// objectMethod is, for a method m of an interface recv whose every method
// metav1.Object declares alike (the tree's narrower view of an object,
// interface{ GetName() string }), metav1.Object's method of that name, which
// the knowledge table knows; else m.
func (a *analysis) objectMethod(m *types.Func, recv types.Type) *types.Func {
	iface, ok := recv.Underlying().(*types.Interface)
	if !ok || m == nil {
		return m
	}
	pkg, name := splitQualified(typeMetaObject)
	p := a.tree.Types(pkg)
	if p == nil {
		return m
	}
	tn, ok := p.Scope().Lookup(name).(*types.TypeName)
	if !ok || !types.Implements(tn.Type(), iface) {
		return m
	}
	if sel := types.NewMethodSet(tn.Type()).Lookup(m.Pkg(), m.Name()); sel != nil {
		if f, ok := sel.Obj().(*types.Func); ok {
			return f
		}
	}
	return m
}
