package locate

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// A pass that stores the clock's reading into its object (a condition's
// heartbeat, a status timestamp) makes the object differ from any copy
// taken before it did: a deep comparison of the object with such a copy
// guarding its write may find them different on every pass of an
// unchanged object, whether it does depending on whether the store ran.

// clockStamp is where the reached functions of the tree's own store a
// value read from the clock (time.Now, metav1.Now, or a value made from
// one) into a struct held in an object of kind (its status, a condition
// in its list) that is not built right there (a condition literal handed
// to a setter); token.NoPos when none does.
func (a *analysis) clockStamp(kind *types.Named, reach *callgraph.Reach) token.Pos {
	if kind == nil {
		return token.NoPos
	}
	held := heldStructs(kind)
	for _, fn := range reach.Funcs() {
		if !a.prog.Own[fn] {
			continue
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || !held[types.Unalias(deref(fa.X.Type()))] || !fromClock(st.Val, 0) {
					continue
				}
				if _, fresh := fa.X.(*ssa.Alloc); fresh {
					// A value built here (a condition literal): the
					// setter it goes to may keep the time already held.
					continue
				}
				return st.Pos()
			}
		}
	}
	return token.NoPos
}

// heldStructs are the named struct types a value of kind holds, itself
// included: in its fields, at any depth, through pointers, slices, arrays
// and maps.
func heldStructs(kind *types.Named) map[types.Type]bool {
	out := map[types.Type]bool{}
	var visit func(t types.Type)
	visit = func(t types.Type) {
		switch u := types.Unalias(t).(type) {
		case *types.Named:
			st, ok := u.Underlying().(*types.Struct)
			if !ok || out[u] {
				return
			}
			out[u] = true
			for i := range st.NumFields() {
				visit(st.Field(i).Type())
			}
		case *types.Pointer:
			visit(u.Elem())
		case *types.Slice:
			visit(u.Elem())
		case *types.Array:
			visit(u.Elem())
		case *types.Map:
			visit(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				visit(u.Field(i).Type())
			}
		}
	}
	visit(kind)
	return out
}

// fromClock reports whether v is a reading of the clock (a function the
// knowledge table knows as RoleClock), or a value made from one by a call
// or a conversion (metav1.NewTime(time.Now())).
func fromClock(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case *ssa.Call:
		if callee := calleeObj(&x.Call); callee != nil && knowledge[funcKey(callee)].Role == RoleClock {
			return true
		}
		for _, arg := range x.Call.Args {
			if fromClock(arg, depth+1) {
				return true
			}
		}
	case *ssa.UnOp:
		return x.Op == token.MUL && fromClock(x.X, depth+1)
	case *ssa.ChangeType:
		return fromClock(x.X, depth+1)
	case *ssa.Convert:
		return fromClock(x.X, depth+1)
	case *ssa.Extract:
		return fromClock(x.Tuple, depth+1)
	case *ssa.Phi:
		for _, e := range x.Edges {
			if fromClock(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// stampedCompare reports whether a block ends in a test of a deep
// comparison (a RoleCompare function of the knowledge table) of two values
// of kind, or of the type of its status.
func stampedCompare(b *ssa.BasicBlock, kind *types.Named) bool {
	cond, ok := blockTest(b)
	if !ok || kind == nil {
		return false
	}
	c, ok := cond.(*ssa.Call)
	if !ok {
		return false
	}
	if callee := calleeObj(&c.Call); callee == nil || knowledge[funcKey(callee)].Role != RoleCompare {
		return false
	}
	var status types.Type
	if st, ok := kind.Underlying().(*types.Struct); ok {
		for i := range st.NumFields() {
			if st.Field(i).Name() == "Status" {
				status = st.Field(i).Type()
			}
		}
	}
	n := 0
	for _, arg := range c.Call.Args {
		if mi, ok := arg.(*ssa.MakeInterface); ok {
			arg = mi.X
		}
		t := deref(arg.Type())
		if types.Identical(t, kind) || status != nil && types.Identical(t, status) {
			n++
		}
	}
	return n >= 2
}
