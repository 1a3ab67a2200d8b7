package locate

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
)

// A function of the tree's that the pass hands to a library call the
// knowledge table does not describe (wait.ExponentialBackoff(b, fn), a
// slice of closures ranged over and handed on one by one) may be run by
// it, once, many times or never: the search cannot follow that call, so a
// write inside such a function is not proven absent from a pass. Read as
// run where it is handed, a write made on every pass so is not settled.

// handedCall is a library call that is handed a function of the tree's.
type handedCall struct {
	site ssa.CallInstruction
	fn   *ssa.Function
}

// handedCalls lists the calls of library functions (or of interface
// methods) in f that are handed a function value of the tree's that f
// makes, followed through conversions, the slices and cells it is kept in
// and append; calls of the knowledge table's runners are left to
// runCalls.
func (a *analysis) handedCalls(f *ssa.Function) []handedCall {
	var out []handedCall
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			var fn *ssa.Function
			var v ssa.Value
			switch x := instr.(type) {
			case *ssa.MakeClosure:
				fn, _ = x.Fn.(*ssa.Function)
				v = x
			case *ssa.ChangeType, *ssa.MakeInterface, *ssa.Store:
				var ops [4]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if g, ok := (*op).(*ssa.Function); ok && a.prog.Own[g] {
						fn = g
					}
				}
				if vv, ok := instr.(ssa.Value); ok {
					v = vv
				} else if st, ok := instr.(*ssa.Store); ok && fn != nil && st.Val == fn {
					v = st.Addr
				}
			}
			if fn == nil || v == nil || !(a.prog.Own[fn] || fn.Parent() != nil && a.prog.Own[fn.Parent()]) {
				continue
			}
			if site := a.handedTo(v, map[ssa.Value]bool{}, 0); site != nil {
				out = append(out, handedCall{site: site, fn: fn})
			}
		}
	}
	return out
}

// handedTo is the first call, following the value v forward, that hands
// it to a library function or an interface method; nil when none does.
func (a *analysis) handedTo(v ssa.Value, seen map[ssa.Value]bool, depth int) ssa.CallInstruction {
	if v == nil || seen[v] || depth > maxHandOnDepth {
		return nil
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return nil
	}
	for _, r := range *refs {
		var next []ssa.Value
		switch x := r.(type) {
		case ssa.CallInstruction:
			c := x.Common()
			if c.Value == v && !c.IsInvoke() {
				continue // run here: the call graph holds that edge
			}
			if bi, ok := c.Value.(*ssa.Builtin); ok {
				if bi.Name() == "append" {
					if res := x.Value(); res != nil {
						next = append(next, res)
					}
				}
			} else if callee := c.StaticCallee(); c.IsInvoke() || callee != nil && !a.prog.Own[callee] && !a.libraryRuns(callee) {
				return x
			}
		case *ssa.Store:
			if x.Val == v {
				next = append(next, addrBase(x.Addr))
			}
		case *ssa.ChangeType, *ssa.MakeInterface, *ssa.Slice, *ssa.Phi, *ssa.IndexAddr, *ssa.FieldAddr, *ssa.Index, *ssa.Lookup:
			next = append(next, r.(ssa.Value))
		case *ssa.UnOp:
			next = append(next, x)
		case *ssa.Extract:
			next = append(next, x)
		case *ssa.Next:
			next = append(next, x)
		case *ssa.Range:
			next = append(next, x)
		}
		for _, n := range next {
			if site := a.handedTo(n, seen, depth+1); site != nil {
				return site
			}
		}
	}
	return nil
}

// maxHandOnDepth bounds the steps handedTo follows a value.
const maxHandOnDepth = 12

// addrBase is the variable an address points into: the array or struct
// an element's or field's address is taken in, else the address itself.
func addrBase(addr ssa.Value) ssa.Value {
	for {
		switch x := addr.(type) {
		case *ssa.IndexAddr:
			addr = x.X
		case *ssa.FieldAddr:
			addr = x.X
		default:
			return addr
		}
	}
}

// libraryRuns reports whether the knowledge table says the library function
// runs a function it is handed (runCalls follows those).
func (a *analysis) libraryRuns(callee *ssa.Function) bool {
	obj, ok := callee.Object().(*types.Func)
	return ok && knowledge[funcKey(obj)].Role == RoleRunsFunc
}

// handedPass is the reading of a pass that runs the functions it hands
// to library calls where they are handed, lets the tests a verdict
// reading lets go either way go a write's way, and the tests of errors
// their nil way: computed once per controller.
type handedPass struct {
	view  passView
	taken map[*ssa.BasicBlock]int
	via   map[*ssa.Function]*callgraph.Edge
}

// handedNote is the note of a write made on every pass only if a library
// call on its way runs the function of the tree's it is handed: "" when
// even so it is not, or when no such call is on its way.
func (a *analysis) handedNote(hp **handedPass, f *found, kind *types.Named, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, fn *ssa.Function, pos token.Pos) string {
	if *hp == nil {
		view := passView{anyCallee: true, loopsRun: true, verdicts: true, handed: true, own: a.prog.Own}
		if kind != nil {
			view.object = a.newDesiredState(kind, reach.Funcs())
		}
		ways := nilErrorWays(reach.Funcs(), taken)
		*hp = &handedPass{view: view, taken: ways, via: a.alwaysReached(a.passRoots(f), normal, ways, made, view)}
	}
	p := *hp
	if !a.always(fn, pos, p.via, normal, p.taken, p.view) {
		return ""
	}
	for _, e := range pathIn(p.via, fn) {
		if e.Site == nil || e.Site.Common().Value == e.Callee.Func || e.Site.Common().StaticCallee() == e.Callee.Func {
			continue
		}
		if callee := e.Site.Common().StaticCallee(); callee != nil && a.libraryRuns(callee) {
			continue
		}
		s, lit := a.site(e.Site.Pos()), a.site(e.Callee.Func.Pos())
		return fmt.Sprintf("not settled: made on every pass if the call at %s:%d runs the function at %s:%d it is handed (what that call does with it is not followed)", s.File, s.Line, lit.File, lit.Line)
	}
	return ""
}
