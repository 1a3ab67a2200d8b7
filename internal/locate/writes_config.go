package locate

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// The tests of a pass on how its controller is built: a field of the
// value the reconcile is a method of (a recorder that may be nil, a
// feature flag) that the pass never writes. On every pass such a test
// goes the same way, but which way depends on what constructs the
// controller, which the search does not follow.

// buildState is what a reading of a pass knows of how the controller is
// built: the reached functions, by receiver type the fields of it they
// write, and, by function, its tests of the others.
type buildState struct {
	fns     []*ssa.Function
	written map[*types.Named]map[*types.Var]bool
	tests   map[*ssa.Function]map[*ssa.BasicBlock]bool
}

func newBuildState(fns []*ssa.Function) *buildState {
	return &buildState{fns: fns, written: map[*types.Named]map[*types.Var]bool{}, tests: map[*ssa.Function]map[*ssa.BasicBlock]bool{}}
}

// testsIn are the branches of a method fn whose condition reads only
// constants and fields of its receiver that the pass never writes.
func (s *buildState) testsIn(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	if m, ok := s.tests[fn]; ok {
		return m
	}
	out := map[*ssa.BasicBlock]bool{}
	s.tests[fn] = out
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 {
		return out
	}
	recv := fn.Params[0]
	named, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	if !ok {
		return out
	}
	written, ok := s.written[named]
	if !ok {
		written = kindWritten(named, s.fns)
		s.written[named] = written
	}
	for _, b := range fn.Blocks {
		cond, ok := blockTest(b)
		if !ok {
			continue
		}
		if only, touches := builtOnly(cond, recv, written, 0); only && touches {
			out[b] = true
		}
	}
	return out
}

// builtOnly reports whether v is computed only from constants and fields
// of recv not in written (only), and whether it reads such a field at
// all (touches).
func builtOnly(v ssa.Value, recv *ssa.Parameter, written map[*types.Var]bool, depth int) (only, touches bool) {
	if depth > 6 {
		return false, false
	}
	switch x := v.(type) {
	case *ssa.Const:
		return true, false
	case *ssa.BinOp:
		ox, tx := builtOnly(x.X, recv, written, depth+1)
		oy, ty := builtOnly(x.Y, recv, written, depth+1)
		return ox && oy, tx || ty
	case *ssa.UnOp:
		switch x.Op {
		case token.NOT:
			return builtOnly(x.X, recv, written, depth+1)
		case token.MUL:
			return builtField(x.X, recv, written), true
		}
	case *ssa.Field:
		return builtField(x, recv, written), true
	}
	return false, false
}

// builtField reports whether v selects a field of recv, at any depth,
// through no field in written.
func builtField(v ssa.Value, recv *ssa.Parameter, written map[*types.Var]bool) bool {
	selected := false
	for range 8 {
		switch x := v.(type) {
		case *ssa.FieldAddr:
			if written[deref(x.X.Type()).Underlying().(*types.Struct).Field(x.Field)] {
				return false
			}
			v, selected = x.X, true
		case *ssa.Field:
			if written[x.X.Type().Underlying().(*types.Struct).Field(x.Field)] {
				return false
			}
			v, selected = x.X, true
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.Parameter:
			return selected && x == recv
		default:
			return false
		}
	}
	return false
}
