package locate

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// The tests of a pass on how its controller is built: a field of the
// value the reconcile is a method of (a recorder that may be nil, a
// feature flag) that the pass never writes. On every pass such a test
// goes the same way, but which way depends on what constructs the
// controller, which the search does not follow.

// builtPass is the reading of a pass on which the tests of how the
// controller is built, and of the object's desired state, go either way:
// computed once per controller.
type builtPass struct {
	view passView
	via  map[*ssa.Function]*callgraph.Edge
}

// builtNote is the note of a write made on every pass only if a test of
// how the controller is built on its way goes its way: "" when even so it
// is not, or when no such test is on its way.
func (a *analysis) builtNote(bp **builtPass, f *found, kind *types.Named, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if *bp == nil {
		view := passView{anyCallee: true, loopsRun: true, built: newBuildState(reach.Funcs())}
		if kind != nil {
			view.object = a.newDesiredState(kind, reach.Funcs())
		}
		*bp = &builtPass{view: view, via: a.alwaysReached(a.passRoots(f), normal, taken, made, view)}
	}
	p := *bp
	if !a.always(fn, pos, p.via, normal, taken, p.view) {
		return ""
	}
	t := testAround(fn, pos, p.view.built.testsIn, p.via)
	if !t.IsValid() {
		return ""
	}
	s := a.site(t)
	return fmt.Sprintf("not settled: made on every pass if the test at %s:%d of how the controller is built (a field of it the pass never writes) goes its way, which depends on what constructs it", s.File, s.Line)
}

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
