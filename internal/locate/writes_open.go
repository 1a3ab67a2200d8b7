package locate

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// goesOnPass is the reading of a pass that goes on past every idle return
// an unchanged object's pass is not known to end at (openEnd): the normal
// returns without them, and the functions every such pass runs.
type goesOnPass struct {
	normal map[*ssa.Function][]*ssa.Return
	via    map[*ssa.Function]*callgraph.Edge
}

// openEndNote says a write is not settled when every pass that goes on
// past the open idle returns makes it: an unchanged object's pass may end
// at one of them, or go on, and which it does the code does not settle.
// It cites the first such return's test on the write's way: in the
// functions from the entry to the write.
func (a *analysis) openEndNote(gp **goesOnPass, f *found, normal map[*ssa.Function][]*ssa.Return, open map[*ssa.Return]openEnd, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if len(open) == 0 {
		return ""
	}
	if *gp == nil {
		closed := closedReturns(normal, open)
		*gp = &goesOnPass{normal: closed, via: a.alwaysReached(a.passRoots(f), closed, taken, made, passView{})}
	}
	p := *gp
	if !a.always(fn, pos, p.via, p.normal, taken, passView{}) {
		return ""
	}
	on := map[*ssa.Function]bool{fn: true}
	for _, e := range pathIn(p.via, fn) {
		on[e.Caller.Func] = true
	}
	var first *openEnd
	for r, e := range open {
		if on[r.Parent()] && (first == nil || e.test < first.test) {
			first = &e
		}
	}
	if first == nil {
		return ""
	}
	s := a.site(first.test)
	return fmt.Sprintf("not settled: made on every pass that goes on past the test at %s:%d, where an unchanged object's pass may end instead: %s", s.File, s.Line, first.why)
}

// testsUnwritten reports whether a condition reads, directly, a field of
// an object other than the primary that the pass never writes (no field
// on the way to it is written in the reached functions: kindWritten), or
// tests whether such an object is there when the pass writes no object of
// its type: an opt-out or a gate another hand sets. A test of what the
// pass itself writes (a revision it creates, a field it sets) is where an
// unchanged object's pass ends once the pass has converged it.
func (a *analysis) testsUnwritten(info *types.Info, cond ast.Expr, kind *types.Named, reach *callgraph.Reach) bool {
	if reach == nil {
		return false
	}
	written := func(t *types.Named) map[*types.Var]bool {
		if a.otherWritten == nil {
			a.otherWritten = map[*callgraph.Reach]map[*types.Named]map[*types.Var]bool{}
		}
		byType := a.otherWritten[reach]
		if byType == nil {
			byType = map[*types.Named]map[*types.Var]bool{}
			a.otherWritten[reach] = byType
		}
		if w, ok := byType[t]; ok {
			return w
		}
		w := kindWritten(t, reach.Funcs())
		byType[t] = w
		return w
	}
	other := func(e ast.Expr) *types.Named {
		t := info.TypeOf(e)
		if t == nil || !IsObjectPointer(types.NewPointer(deref(t))) {
			return nil
		}
		n, ok := types.Unalias(deref(t)).(*types.Named)
		if !ok || kind != nil && types.Identical(n, kind) {
			return nil
		}
		return n
	}
	found := false
	ast.Inspect(cond, func(n ast.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *ast.SelectorExpr:
			// obj.A.B: the fields from the object to the one read.
			var path []*types.Var
			for e := ast.Expr(x); ; {
				sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
				if !ok {
					return false
				}
				s := info.Selections[sel]
				if s == nil || s.Kind() != types.FieldVal {
					return true
				}
				path = append(path, s.Obj().(*types.Var).Origin())
				if t := other(sel.X); t != nil {
					w := written(t)
					found = !slices.ContainsFunc(path, func(f *types.Var) bool { return w[f] })
					return false
				}
				e = sel.X
			}
		case *ast.BinaryExpr:
			// obj == nil: whether an object of the type is there.
			if x.Op == token.EQL || x.Op == token.NEQ {
				for _, pair := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
					if t := other(pair[0]); t != nil && isNil(info, pair[1]) {
						found = len(written(t)) == 0
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

// unsettledPass is the reading of a pass on which every test the search
// leaves unsettled goes a write's way at once: those each earlier note
// relaxes alone (a call that may run one of several functions, loops
// over values not proven to hold an element, tests of the object's
// desired state and of how the controller is built, verdicts and values
// not followed, deep comparisons that may misjudge, the objects read
// existing, idle returns the pass is not known to end at), with the
// errors tested going their nil way.
type unsettledPass struct {
	view   passView
	taken  map[*ssa.BasicBlock]int
	normal map[*ssa.Function][]*ssa.Return
	via    map[*ssa.Function]*callgraph.Edge
}

// unsettledNote says a write is not settled when it is made on every
// pass on which the tests the search leaves unsettled go its way
// together, though no one of them alone makes it so: a "made only on
// some paths" is a claim that a test the search settles (an error, a
// deletion, a comparison of desired with live state, an object absent)
// keeps it off an unchanged object's pass, and this is where no such test
// does. It names the nearest unsettled test on the write's way.
func (a *analysis) unsettledNote(up **unsettledPass, f *found, kind *types.Named, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, open map[*ssa.Return]openEnd, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if *up == nil {
		misjudged, _ := a.misjudgedCompares(kind, reach)
		view := passView{anyCallee: true, loopsRun: true, verdicts: true, handed: true, own: a.prog.Own, built: newBuildState(reach.Funcs()), misjudged: misjudged}
		if kind != nil {
			view.object = a.newDesiredState(kind, reach.Funcs())
		}
		closed := closedReturns(normal, open)
		ways := nilErrorWays(reach.Funcs(), foundBranches(taken, reach.Funcs()))
		*up = &unsettledPass{view: view, taken: ways, normal: closed, via: a.alwaysReached(a.passRoots(f), closed, ways, made, view)}
	}
	p := *up
	if !a.always(fn, pos, p.via, p.normal, p.taken, p.view) {
		return ""
	}
	if t := testAround(fn, pos, func(g *ssa.Function) map[*ssa.BasicBlock]bool { return either(g, p.view) }, p.via); t.IsValid() {
		s := a.site(t)
		return fmt.Sprintf("not settled: made on every pass on which the tests ctrlcmp does not settle go its way together (the nearest: %s:%d), the objects read on its way exist and the calls on it run the functions it goes through", s.File, s.Line)
	}
	return "not settled: made on every pass on which the objects read on its way exist, the calls on it run the functions it goes through and the pass goes on past the idle returns it is not known to end at"
}

// closedReturns are the normal returns without the open idle returns,
// but a function's whose normal returns are all open.
func closedReturns(normal map[*ssa.Function][]*ssa.Return, open map[*ssa.Return]openEnd) map[*ssa.Function][]*ssa.Return {
	closed := make(map[*ssa.Function][]*ssa.Return, len(normal))
	for g, rs := range normal {
		kept := slices.DeleteFunc(slices.Clone(rs), func(r *ssa.Return) bool { _, ok := open[r]; return ok })
		if len(kept) == 0 {
			kept = rs
		}
		closed[g] = kept
	}
	return closed
}
