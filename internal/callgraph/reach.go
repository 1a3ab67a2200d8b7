package callgraph

import (
	"cmp"
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
)

// Walks of the call graph: what the reconcile path reaches from its
// entries, and the edges into and out of a function.

// Reach is the result of a breadth-first walk of the call graph from a set of
// entry functions: every reached function with the edge it was first reached
// by, so that Path gives a shortest chain of calls.
type Reach struct {
	// Unanalysed are the functions reached (entries included) whose bodies
	// were left out (type errors): what they do is unknown.
	Unanalysed []*ssa.Function
	via        map[*ssa.Function]*callgraph.Edge
	encl       map[*ssa.Function]*ssa.Function // closure -> the function creating it
	order      []*ssa.Function
	entries    []*ssa.Function
	skip       func(*ssa.Function) bool
	unmade     func(*ssa.Function) bool
}

// Reachable walks the call graph from the entries.
func (pr *Program) Reachable(entries ...*ssa.Function) *Reach {
	return pr.ReachableExcept(nil, nil, entries...)
}

// ReachableExcept walks the call graph from the entries, entering no
// function skip reports through a dynamic call or a value handed on (an
// implementation a dynamic call may reach but that the caller knows is not
// the one run); a static call still enters it. Nor does it enter, through
// a dynamic call, a function unmade reports (a method of a type whose
// interface values are all made where the walk does not go).
func (pr *Program) ReachableExcept(skip, unmade func(*ssa.Function) bool, entries ...*ssa.Function) *Reach {
	return pr.walk(skip, unmade, nil, entries)
}

// ReachableAvoiding is what r reaches when the walk never enters avoid, nor
// a closure made in it, by any call: the functions that run on some path
// that does not pass through avoid (a helper the finalizer's cleanup calls
// and the success path calls too).
func (pr *Program) ReachableAvoiding(r *Reach, avoid *ssa.Function) *Reach {
	return pr.walk(r.skip, r.unmade, func(f *ssa.Function) bool {
		for ; f != nil; f = f.Parent() {
			if f == avoid {
				return true
			}
		}
		return false
	}, r.entries)
}

// walk is the breadth-first walk behind ReachableExcept and
// ReachableAvoiding: skip keeps it out of a function reached through a
// dynamic call or a value handed on, unmade out of one reached through a
// dynamic call, never keeps it out of any way.
func (pr *Program) walk(skip, unmade, never func(*ssa.Function) bool, entries []*ssa.Function) *Reach {
	r := &Reach{via: map[*ssa.Function]*callgraph.Edge{}, encl: map[*ssa.Function]*ssa.Function{}, skip: skip, unmade: unmade}
	var queue []*ssa.Function
	for _, e := range entries {
		if e == nil || never != nil && never(e) {
			continue
		}
		if !slices.Contains(r.entries, e) {
			r.entries = append(r.entries, e)
		}
		if pr.unanalysed(e) && !slices.Contains(r.Unanalysed, e) {
			r.Unanalysed = append(r.Unanalysed, e)
		}
		if _, ok := r.via[e]; !ok {
			r.via[e] = nil
			queue = append(queue, e)
		}
	}
	listed := map[ast.Node]bool{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		// Instances of one generic declaration share its syntax: the
		// declaration is listed once, every instance is walked.
		if syn := f.Syntax(); syn == nil || !listed[syn] {
			if syn != nil {
				listed[syn] = true
			}
			r.order = append(r.order, f)
		}
		// A closure made here, or a function or method value handed on
		// from here, may be run by a library (a retry helper, a deferred
		// call, a worker loop) that has no body in the graph: count it as
		// reached.
		for _, g := range pr.handedOn(f) {
			if skip != nil && skip(g) || never != nil && never(g) {
				continue
			}
			if _, ok := r.via[g]; !ok {
				r.via[g] = nil
				r.encl[g] = f
				queue = append(queue, g)
			}
		}
		node := pr.graph.Nodes[f]
		if node == nil {
			continue
		}
		out := append([]*callgraph.Edge(nil), node.Out...)
		sort.SliceStable(out, func(i, j int) bool {
			if out[i].Pos() != out[j].Pos() {
				return out[i].Pos() < out[j].Pos()
			}
			// One call, several callees (an interface's implementations,
			// a generic function's instances): by name.
			return out[i].Callee.Func.String() < out[j].Callee.Func.String()
		})
		for _, e := range out {
			callee := e.Callee.Func
			dynamic := e.Site != nil && e.Site.Common().StaticCallee() == nil
			if dynamic && (skip != nil && skip(callee) || unmade != nil && unmade(callee)) || pr.confined[callee] || never != nil && never(callee) {
				continue // a confined closure is entered from its maker only
			}
			if pr.unanalysed(callee) && !slices.Contains(r.Unanalysed, callee) {
				r.Unanalysed = append(r.Unanalysed, callee)
			}
			if _, ok := r.via[callee]; ok || !pr.Own[callee] {
				continue
			}
			r.via[callee] = e
			queue = append(queue, callee)
		}
	}
	return r
}

// handedOn returns the own functions f makes values of: its closures, and
// the own functions and methods it names as values (an operand other than
// the callee of a static call), through the bound-method and thunk wrappers
// that a method value makes.
func (pr *Program) handedOn(f *ssa.Function) []*ssa.Function {
	out := append([]*ssa.Function(nil), f.AnonFuncs...)
	add := func(g *ssa.Function) {
		if pr.Own[g] && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	for _, b := range f.Blocks {
		for _, instr := range b.Instrs {
			var callee ssa.Value
			if c, ok := instr.(ssa.CallInstruction); ok && c.Common().StaticCallee() != nil {
				callee = c.Common().Value
			}
			var ops [8]*ssa.Value
			for _, op := range instr.Operands(ops[:0]) {
				if op == nil || *op == callee {
					continue
				}
				g, ok := (*op).(*ssa.Function)
				if !ok {
					continue
				}
				if pr.Own[g] {
					add(g)
					continue
				}
				for _, t := range wrapped(g) {
					add(t)
				}
			}
		}
	}
	return out
}

// wrapped returns the functions a synthetic wrapper (a bound method value,
// a method expression's thunk) calls.
func wrapped(w *ssa.Function) []*ssa.Function {
	if w.Synthetic == "" {
		return nil
	}
	var out []*ssa.Function
	for _, b := range w.Blocks {
		for _, instr := range b.Instrs {
			if c, ok := instr.(ssa.CallInstruction); ok {
				if g := c.Common().StaticCallee(); g != nil {
					out = append(out, g)
				}
			}
		}
	}
	return out
}

// unanalysed reports whether f is an own function whose body was left out
// because it holds type errors.
func (pr *Program) unanalysed(f *ssa.Function) bool {
	obj, ok := f.Object().(*types.Func)
	return ok && pr.Unanalysed[obj]
}

// Has reports whether f was reached.
func (r *Reach) Has(f *ssa.Function) bool {
	_, ok := r.via[f]
	return ok
}

// Funcs returns the reached functions, nearest first.
func (r *Reach) Funcs() []*ssa.Function { return r.order }

// Path returns the chain of call edges from an entry to f (empty for an entry
// itself, nil when f was not reached).
func (r *Reach) Path(f *ssa.Function) []*Edge {
	if !r.Has(f) {
		return nil
	}
	var path []*Edge
	for f != nil {
		if e := r.via[f]; e != nil {
			path = append([]*Edge{e}, path...)
			f = e.Caller.Func
		} else {
			f = r.encl[f]
		}
	}
	return path
}

// HandedOn reports whether the walk reached f, or a function on its path,
// as a function value handed on (named as an operand, not called: a
// struct of write functions built in one place and called in another),
// not as a closure of the function making it: the path then does not hold
// the call that runs it.
func (r *Reach) HandedOn(f *ssa.Function) bool {
	for f != nil {
		if e := r.via[f]; e != nil {
			f = e.Caller.Func
			continue
		}
		g := r.encl[f]
		if g != nil && f.Parent() != g {
			return true
		}
		f = g
	}
	return false
}

// Edge is one call of the graph: the call site, its caller and its callee.
type Edge = callgraph.Edge

// CallsInto returns the calls of f that the graph knows, in a stable order
// (bySite): the order the graph was built in is not.
func (pr *Program) CallsInto(f *ssa.Function) []*Edge {
	if n := pr.graph.Nodes[f]; n != nil {
		return bySite(n.In)
	}
	return nil
}

// CallsFrom returns the calls f makes that the graph knows, in a stable
// order (bySite).
func (pr *Program) CallsFrom(f *ssa.Function) []*Edge {
	if n := pr.graph.Nodes[f]; n != nil {
		return bySite(n.Out)
	}
	return nil
}

// bySite is a copy of edges sorted by their call site's position, then by
// caller and callee.
func bySite(edges []*Edge) []*Edge {
	out := slices.Clone(edges)
	slices.SortStableFunc(out, func(x, y *Edge) int {
		if x.Pos() != y.Pos() {
			return cmp.Compare(x.Pos(), y.Pos())
		}
		if c := strings.Compare(x.Caller.Func.String(), y.Caller.Func.String()); c != 0 {
			return c
		}
		return strings.Compare(x.Callee.Func.String(), y.Callee.Func.String())
	})
	return out
}

// RunEdge is the edge by which a library function called at site (a retry
// helper) runs fn, a function the caller hands it: the graph holds no body
// for the library, so the edge joins the caller's and fn's nodes.
func (pr *Program) RunEdge(site ssa.CallInstruction, fn *ssa.Function) *Edge {
	caller, callee := pr.graph.Nodes[site.Parent()], pr.graph.Nodes[fn]
	if caller == nil {
		caller = &callgraph.Node{Func: site.Parent()}
	}
	if callee == nil {
		callee = &callgraph.Node{Func: fn}
	}
	return &callgraph.Edge{Caller: caller, Site: site, Callee: callee}
}
