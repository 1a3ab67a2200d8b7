package locate

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// verdictTests are the blocks of fn that end in a test of a verdict an
// interface value hands back (if v := step(); v.Completed() { return
// v.Output() }): which implementation runs, and so which way the pass
// goes, is not followed.
func verdictTests(fn *ssa.Function) map[*ssa.BasicBlock]bool {
	out := map[*ssa.BasicBlock]bool{}
	for _, b := range fn.Blocks {
		if len(b.Instrs) == 0 {
			continue
		}
		ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond := ifs.Cond
		if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
			cond = not.X
		}
		if c, ok := cond.(*ssa.Call); ok && c.Call.IsInvoke() {
			out[b] = true
		}
	}
	return out
}

// nilErrorWays adds to taken, for the tests of an error against nil in
// fns, the way a succeeding pass takes: the error's nil way.
func nilErrorWays(fns []*ssa.Function, taken map[*ssa.BasicBlock]int) map[*ssa.BasicBlock]int {
	out := maps.Clone(taken)
	if out == nil {
		out = map[*ssa.BasicBlock]int{}
	}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			if len(b.Instrs) == 0 || len(b.Succs) != 2 {
				continue
			}
			ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
			if !ok {
				continue
			}
			c, ok := ifs.Cond.(*ssa.BinOp)
			if !ok || c.Op != token.EQL && c.Op != token.NEQ || !nilErrorTest(c.X, c.Y) && !nilErrorTest(c.Y, c.X) {
				continue
			}
			if _, set := out[b]; set {
				continue
			}
			out[b] = 1 // err != nil: the else way
			if c.Op == token.EQL {
				out[b] = 0
			}
		}
	}
	return out
}

// nilErrorTest reports whether v is an error and other the nil constant.
func nilErrorTest(v, other ssa.Value) bool {
	k, ok := other.(*ssa.Const)
	return ok && k.IsNil() && isErrorType(v.Type())
}

// verdictPass is the reading of a pass that lets the verdicts of
// interface values and the tests of the object's desired state go a
// write's way, and the tests of errors their nil way: computed once per
// controller, when a write is not settled by the readings before it.
type verdictPass struct {
	view  passView
	taken map[*ssa.BasicBlock]int
	via   map[*ssa.Function]*callgraph.Edge
}

// verdictNote is the note of a write made on every pass only if the
// verdicts tested on its way let the pass go on: "" when even so it is
// not, or when no verdict is tested on its way.
func (a *analysis) verdictNote(vp **verdictPass, f *found, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if *vp == nil {
		view := passView{anyCallee: true, loopsRun: true, verdicts: true}
		if f.kind != nil {
			view.object = a.newDesiredState(f.kind, reach.Funcs())
		}
		ways := nilErrorWays(reach.Funcs(), taken)
		*vp = &verdictPass{view: view, taken: ways, via: a.alwaysReached(a.passRoots(f), normal, ways, made, view)}
	}
	p := *vp
	if !a.always(fn, pos, p.via, normal, p.taken, p.view) {
		return ""
	}
	t := testAround(fn, pos, verdictTests, p.via)
	if !t.IsValid() {
		return ""
	}
	s := a.site(t)
	return fmt.Sprintf("not settled: made on every pass if the verdict tested at %s:%d, which an interface value hands back, lets the pass go on (the implementation that runs is not followed)", s.File, s.Line)
}
