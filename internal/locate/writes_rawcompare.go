package locate

import (
	"fmt"
	"go/token"
	"go/types"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"

	"golang.org/x/tools/go/ssa"
)

// A raw deep comparison (reflect.DeepEqual) reads every field of what it
// compares, the caches some library types keep included: values holding
// the same desired state may still compare different (rawMisjudged), and
// a write it guards may then be made on every pass.

// misjudgedCompares are the blocks of the reached functions that end in
// a test of a deep comparison that may misjudge (rawCompareNote), with,
// by the position of each test, why.
func (a *analysis) misjudgedCompares(kind *types.Named, reach *callgraph.Reach) (map[*ssa.BasicBlock]bool, map[token.Pos]string) {
	blocks, why := map[*ssa.BasicBlock]bool{}, map[token.Pos]string{}
	stamp := a.clockStamp(kind, reach)
	for _, g := range reach.Funcs() {
		for _, b := range g.Blocks {
			w := rawCompareWhy(b)
			if w == "" && stamp.IsValid() && stampedCompare(b, kind) {
				s := a.site(stamp)
				w = fmt.Sprintf("the pass stores the clock's reading into the object (%s:%d), which an earlier copy of it does not hold", s.File, s.Line)
			}
			if w != "" {
				blocks[b] = true
				why[b.Instrs[len(b.Instrs)-1].(*ssa.If).Cond.Pos()] = w
			}
		}
	}
	return blocks, why
}

// rawCompareWhy is, for a block that ends in a test of a raw deep
// comparison, why it may misjudge what it compares ("it is a raw deep
// comparison, and" what rawMisjudged says); "" when it does not end in
// one, or compares no such value.
func rawCompareWhy(b *ssa.BasicBlock) string {
	cond, ok := blockTest(b)
	if !ok {
		return ""
	}
	c, ok := cond.(*ssa.Call)
	if !ok {
		return ""
	}
	if callee := calleeObj(&c.Call); callee == nil || !knowledge[funcKey(callee)].Raw {
		return ""
	}
	for _, arg := range c.Call.Args {
		if mi, ok := arg.(*ssa.MakeInterface); ok {
			if why := misjudgedIn(mi.X.Type(), map[types.Type]bool{}); why != "" {
				return "it is a raw deep comparison, and " + why
			}
		}
	}
	return ""
}

// rawPass is the pass view rawCompareNote asks, computed once per
// controller: the objects read on the way found, and the tests of deep
// comparisons that may misjudge let go either way.
type rawPass struct {
	view  passView
	taken map[*ssa.BasicBlock]int
	via   map[*ssa.Function]*callgraph.Edge
	// why maps the position of each such test on the pass to why it may
	// misjudge.
	why map[token.Pos]string
}

// rawCompareNote is the note of a write made on every pass (on which the
// objects read on its way exist) only if a deep comparison on its way
// finds different what it may misjudge: a raw one of values it may
// misjudge (rawCompareWhy), or one of the object with another value of
// its type when the pass stores the clock's reading into the object
// (stampedCompare). "" when even so it is not.
func (a *analysis) rawCompareNote(rp **rawPass, f *found, kind *types.Named, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if *rp == nil {
		misjudged, why := a.misjudgedCompares(kind, reach)
		p := &rawPass{view: passView{misjudged: misjudged}, taken: foundBranches(taken, reach.Funcs()), why: why}
		if len(p.why) > 0 {
			p.via = a.alwaysReached(a.passRoots(f), normal, p.taken, made, p.view)
		}
		*rp = p
	}
	p := *rp
	if len(p.why) == 0 || !a.always(fn, pos, p.via, normal, p.taken, p.view) {
		return ""
	}
	t := testAround(fn, pos, func(*ssa.Function) map[*ssa.BasicBlock]bool { return p.view.misjudged }, p.via)
	if !t.IsValid() {
		return ""
	}
	s := a.site(t)
	return fmt.Sprintf("not settled: made on every pass (on which the objects read on its way exist) if the comparison at %s:%d finds what it compares different, which it may on an unchanged object: %s", s.File, s.Line, p.why[t])
}

// misjudgedIn is why a raw comparison may misjudge values of type t: the
// reason rawMisjudged gives for a type t holds, in a field, an element or
// behind a pointer; "" when it holds none.
func misjudgedIn(t types.Type, seen map[types.Type]bool) string {
	t = types.Unalias(t)
	if seen[t] {
		return ""
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.Named:
		if why, ok := rawMisjudged[typeKey(u)]; ok {
			return why
		}
		return misjudgedIn(u.Underlying(), seen)
	case *types.Pointer:
		return misjudgedIn(u.Elem(), seen)
	case *types.Slice:
		return misjudgedIn(u.Elem(), seen)
	case *types.Array:
		return misjudgedIn(u.Elem(), seen)
	case *types.Map:
		if why := misjudgedIn(u.Key(), seen); why != "" {
			return why
		}
		return misjudgedIn(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if why := misjudgedIn(u.Field(i).Type(), seen); why != "" {
				return why
			}
		}
	}
	return ""
}
