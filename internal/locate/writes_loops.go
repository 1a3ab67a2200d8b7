package locate

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// The range loops of a pass: which run their body at least once, for
// certain or by assumption, and which one a write sits in.

// nonEmptyRanges numbers the loop tests of fn's range loops over a slice
// that holds at least one element on every call: a slice literal with
// elements, an append of one, or a parameter every known call of fn passes
// such a slice. Such a loop's body runs at least once.
func (a *analysis) nonEmptyRanges(fn *ssa.Function) map[*ssa.BasicBlock]int {
	out := map[*ssa.BasicBlock]int{}
	for _, b := range fn.Blocks {
		ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || len(out) == 64 {
			continue
		}
		cmp, ok := ifs.Cond.(*ssa.BinOp)
		if !ok || cmp.Op != token.LSS {
			continue
		}
		n, ok := cmp.Y.(*ssa.Call)
		if !ok || len(n.Call.Args) != 1 {
			continue
		}
		if bi, ok := n.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "len" {
			continue
		}
		if a.nonEmpty(n.Call.Args[0], 0) {
			out[b] = len(out)
		}
	}
	return out
}

// nonEmpty reports whether a slice value holds at least one element
// wherever it comes from.
func (a *analysis) nonEmpty(v ssa.Value, depth int) bool {
	if depth > 4 {
		return false
	}
	switch v := v.(type) {
	case *ssa.Slice:
		if v.Low != nil || v.High != nil {
			return false
		}
		if al, ok := v.X.(*ssa.Alloc); ok {
			if arr, ok := deref(al.Type()).Underlying().(*types.Array); ok {
				return arr.Len() > 0
			}
		}
	case *ssa.Call:
		if bi, ok := v.Call.Value.(*ssa.Builtin); ok && bi.Name() == "append" && len(v.Call.Args) == 2 {
			return a.nonEmpty(v.Call.Args[0], depth+1) || a.nonEmpty(v.Call.Args[1], depth+1)
		}
	case *ssa.Phi:
		for _, e := range v.Edges {
			if !a.nonEmpty(e, depth+1) {
				return false
			}
		}
		return len(v.Edges) > 0
	case *ssa.Parameter:
		fn := v.Parent()
		i := slices.Index(fn.Params, v)
		calls := a.prog.CallsInto(fn)
		if i < 0 || len(calls) == 0 {
			return false
		}
		for _, e := range calls {
			if e.Site == nil {
				return false
			}
			c := e.Site.Common()
			j := i
			if c.IsInvoke() {
				j--
			}
			if j < 0 || j >= len(c.Args) || !a.nonEmpty(c.Args[j], depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// passView is what a reading of a pass may assume beyond what the code
// proves: that a call which may run one of several functions runs each
// (anyCallee), that every range loop runs its body at least once
// (loopsRun), that each test of the primary object's desired state goes
// the way that leads to the write (object), and that each verdict an
// interface value hands back does too (verdicts).
type passView struct {
	anyCallee, loopsRun bool
	object              *desiredState
	// built lets the tests of how the controller is built go either way.
	built    *buildState
	verdicts bool
	// own, with verdicts, are the tree's functions: the bools one of them
	// hands back are tested as verdicts are (helperVerdicts).
	own map[*ssa.Function]bool
	// handed runs the functions the pass hands to library calls where
	// it hands them (handedCalls).
	handed bool
	// misjudged are the tests of deep comparisons that may find an
	// unchanged object's values different (rawPass), let go either way.
	misjudged map[*ssa.BasicBlock]bool
}

// either is the tests of fn that the view lets go either way: the tests
// of the object's desired state when it names the object, those of how
// the controller is built when it asks, and with
// verdicts the tests of what the search does not follow: interface
// values' verdicts, the bools functions of the tree's hand back, values
// a function is handed by value, and the primary's status.
func either(fn *ssa.Function, view passView) map[*ssa.BasicBlock]bool {
	var out map[*ssa.BasicBlock]bool
	if view.object != nil {
		out = view.object.testsIn(fn)
	}
	if view.built != nil {
		out = maps.Clone(out)
		if out == nil {
			out = map[*ssa.BasicBlock]bool{}
		}
		maps.Copy(out, view.built.testsIn(fn))
	}
	if !view.verdicts && view.misjudged == nil {
		return out
	}
	out = maps.Clone(out)
	if out == nil {
		out = map[*ssa.BasicBlock]bool{}
	}
	for _, b := range fn.Blocks {
		if view.misjudged[b] {
			out[b] = true
		}
	}
	if !view.verdicts {
		return out
	}
	for b := range verdictTests(fn) {
		out[b] = true
	}
	for b := range helperVerdicts(fn, view.own) {
		out[b] = true
	}
	for b := range handedValueTests(fn) {
		out[b] = true
	}
	if view.object != nil {
		for b := range statusTests(fn, view.object.kind, view.own) {
			out[b] = true
		}
	}
	return out
}

// runOnce is the range loops of fn whose body runs at least once,
// computed once: nonEmptyRanges, or with loopsRun every range loop.
func (a *analysis) runOnce(fn *ssa.Function, loopsRun bool) map[*ssa.BasicBlock]int {
	cache := &a.onceLoops
	if loopsRun {
		cache = &a.rangeLoops
	}
	if *cache == nil {
		*cache = map[*ssa.Function]map[*ssa.BasicBlock]int{}
	}
	m, ok := (*cache)[fn]
	if !ok {
		if loopsRun {
			m = rangeTests(fn)
		} else {
			m = a.nonEmptyRanges(fn)
		}
		(*cache)[fn] = m
	}
	return m
}

// rangeTests numbers the loop tests of fn's range loops over a slice or a
// map (at most 64).
func rangeTests(fn *ssa.Function) map[*ssa.BasicBlock]int {
	out := map[*ssa.BasicBlock]int{}
	for _, b := range fn.Blocks {
		ifs, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || len(out) == 64 {
			continue
		}
		switch c := ifs.Cond.(type) {
		case *ssa.BinOp:
			if n, ok := c.Y.(*ssa.Call); ok && c.Op == token.LSS && len(n.Call.Args) == 1 {
				if bi, ok := n.Call.Value.(*ssa.Builtin); ok && bi.Name() == "len" {
					out[b] = len(out)
				}
			}
		case *ssa.Extract:
			if _, ok := c.Tuple.(*ssa.Next); ok && c.Index == 0 {
				out[b] = len(out)
			}
		}
	}
	return out
}

// loopAround is the innermost range loop around pos in fn's
// syntax, else around the call of fn (and of its callers, along via)
// that leads to it; nil when there is none.
func (a *analysis) loopAround(fn *ssa.Function, pos token.Pos, via map[*ssa.Function]*callgraph.Edge) ast.Node {
	for range maxLoopClimb {
	inner:
		for _, n := range a.path(pos, pos) {
			switch n.(type) {
			case *ast.RangeStmt:
				return n
			case *ast.FuncDecl, *ast.FuncLit:
				break inner
			}
		}
		e := via[fn]
		if e == nil || e.Site == nil {
			return nil
		}
		fn, pos = e.Caller.Func, e.Site.Pos()
	}
	return nil
}

// maxLoopClimb bounds the callers loopAround looks in.
const maxLoopClimb = 8
