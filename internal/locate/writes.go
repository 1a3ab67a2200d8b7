package locate

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/ctrlcmp/ctrlcmp/internal/callgraph"
	"github.com/ctrlcmp/ctrlcmp/internal/cite"
)

// Write is one write a reconcile can make to the API server.
type Write struct {
	cite.Site
	Verb   string `json:"verb"`
	Target string `json:"target"`
	// Always says the write happens on every pass that reaches the normal
	// return: every call on its path dominates its function's normal
	// returns, or runs deferred from such a place.
	Always bool `json:"always"`
	// Path is the chain of calls from the entry, "file:line symbol" each.
	Path []string `json:"path,omitempty"`
	Note string   `json:"note,omitempty"`
	// Partial says the write was found in a function body holding type
	// errors, read from its syntax and the types recorded (no SSA): when
	// it runs is not known, so it is never marked always.
	Partial bool `json:"partial,omitempty"`
}

// writes lists every write reachable from the entry, in the order the
// reconcile reaches them; kind is the primary's, that of the registration
// or of the re-read. open are the normal returns an unchanged object's
// pass is not known to end at (normalReturns).
func (a *analysis) writes(f *found, kind *types.Named, reach *callgraph.Reach, normal map[*ssa.Function][]*ssa.Return, open map[*ssa.Return]openEnd) []Write {
	var out []Write
	taken := a.steadyBranches(f.entry, kind, reach.Funcs(), a.prog.Own)
	normal = steadyNormal(normal, taken)
	made := madeTypes(reach.Funcs())
	alwaysVia := a.alwaysReached(a.passRoots(f), normal, taken, made, passView{})
	var anyVia, loopVia, objectVia, foundVia map[*ssa.Function]*callgraph.Edge
	var foundTaken map[*ssa.BasicBlock]int
	var objectView passView
	var built *builtPass
	var verdicts *verdictPass
	var handed *handedPass
	var raw *rawPass
	var goesOn *goesOnPass
	var unsettled *unsettledPass
	for _, wc := range a.writeCalls(reach) {
		c, fn := wc.call, wc.call.in
		w := Write{Site: a.site(c.expr.Lparen).Site, Verb: wc.verb, Target: wc.target}
		if c.known && c.fact.Role == RoleApply {
			w.Note = "server-side apply: writes only the objects whose dry run differs from the cluster"
			if c.fact.Summary != "" {
				w.Note = c.fact.Summary
			}
		}
		w.Partial = wc.partial
		if wc.library != nil {
			w.Note = a.libraryNote(c, wc.library)
		}
		// A create-or-update writes only when the mutated live object
		// differs from what it read, and a library's apply that compares
		// each object with the live one first (its drift knowledge) only
		// what differs: never on a pass of an unchanged one.
		idleWhenEqual := c.known && (c.fact.Verb == verbCreateOrUpdate || c.fact.Verb == verbCreateOrPatch || c.fact.Drift != nil)
		if at := a.replacedByMutate(wc.info, c); idleWhenEqual && at.IsValid() {
			s := a.site(at)
			idleWhenEqual = false
			w.Note = fmt.Sprintf("the mutate function replaces the whole object at %s:%d, dropping the uid and creationTimestamp the server set: the comparison never finds them equal, so it writes whenever it runs", s.File, s.Line)
		}
		w.Always = !wc.partial && !idleWhenEqual && a.always(fn, c.expr.Lparen, alwaysVia, normal, taken, passView{})
		if w.Always && wc.library != nil && !slices.ContainsFunc(wc.library, func(l libWrite) bool { return l.always }) {
			// The call runs on every pass; the library writes only on
			// some of its own paths.
			w.Always = false
			w.Note += "; not settled: the call runs on every pass, and the library writes only on some of its paths (what it tests there is not followed)"
		}
		if w.Always {
			if test := a.endedEarly(fn, c.expr, kind, alwaysVia, normal, taken); test != nil {
				s := a.site(test.Pos())
				w.Always = false
				w.Note = strings.TrimPrefix(w.Note+fmt.Sprintf("; not settled: made on every pass that goes on past the test at %s:%d, which ends the pass first when it holds and compares what the pass computed: an unchanged object may end its pass there", s.File, s.Line), "; ")
			}
		}
		if w.Always {
			if test := a.guardOnTheWay(reach, fn, c.expr, objectsVerdict); test != nil {
				s := a.site(test.Pos())
				w.Always = false
				w.Note = strings.TrimPrefix(w.Note+fmt.Sprintf("; not settled: made on every pass on which the test at %s:%d lets it through, a verdict a function handed two objects makes (it may compare them, which is not read)", s.File, s.Line), "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if a call that may run one of several
			// functions runs the one on its path: not settled.
			if anyVia == nil {
				anyVia = a.alwaysReached(a.passRoots(f), normal, taken, made, passView{anyCallee: true})
			}
			if a.always(fn, c.expr.Lparen, anyVia, normal, taken, passView{}) {
				if d := a.dynamicEdge(anyVia, fn); d != nil {
					s := a.site(d.Site.Pos())
					w.Note = strings.TrimPrefix(w.Note+fmt.Sprintf("; not settled: made on every pass if the call at %s:%d runs %s, one of the functions it may run", s.File, s.Line, funcNames(map[*ssa.Function]bool{d.Callee.Func: true})), "; ")
				}
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if the loops around it run their body:
			// over values not proven to hold an element, not settled.
			if loopVia == nil {
				loopVia = a.alwaysReached(a.passRoots(f), normal, taken, made, passView{loopsRun: true})
			}
			if a.always(fn, c.expr.Lparen, loopVia, normal, taken, passView{loopsRun: true}) {
				at := "the loops around it"
				if l := a.loopAround(fn, c.expr.Pos(), loopVia); l != nil {
					s := a.site(l.Pos())
					at = fmt.Sprintf("the loop at %s:%d", s.File, s.Line)
				}
				w.Note = strings.TrimPrefix(w.Note+"; not settled: made on every pass if "+at+" runs its body at least once, over values ctrlcmp does not prove non-empty", "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") && kind != nil {
			// Made on every pass if the tests of the object's own desired
			// state on its way go its way: that depends on the object.
			if objectVia == nil {
				objectView = passView{anyCallee: true, loopsRun: true, object: a.newDesiredState(kind, reach.Funcs())}
				objectVia = a.alwaysReached(a.passRoots(f), normal, taken, made, objectView)
			}
			if a.always(fn, c.expr.Lparen, objectVia, normal, taken, objectView) {
				at := "the tests of its spec or metadata on the way"
				if t := a.objectTestAround(fn, c.expr.Lparen, objectView.object, objectVia); t.IsValid() {
					s := a.site(t)
					at = fmt.Sprintf("the test of its spec or metadata at %s:%d", s.File, s.Line)
				}
				w.Note = strings.TrimPrefix(w.Note+fmt.Sprintf("; not settled: made on every pass of an unchanged %s for which %s goes its way (the same way on every pass, but which way depends on the object)", kind.Obj().Name(), at), "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if the tests of how the controller is
			// built on its way go its way: that depends on what builds it.
			if note := a.builtNote(&built, f, kind, reach, normal, taken, made, fn, c.expr.Lparen); note != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+note, "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if the objects it reads before exist:
			// whether they do is the cluster's, not the code's.
			if foundVia == nil {
				foundTaken = foundBranches(taken, reach.Funcs())
				foundVia = a.alwaysReached(a.passRoots(f), normal, foundTaken, made, passView{})
			}
			if a.always(fn, c.expr.Lparen, foundVia, normal, foundTaken, passView{}) {
				w.Note = strings.TrimPrefix(w.Note+"; not settled: made on every pass on which the objects read on its way exist (a test that one is absent, apierrors.IsNotFound, returns before it otherwise)", "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if a raw deep comparison on its way
			// finds different what it may misjudge.
			if note := a.rawCompareNote(&raw, f, kind, reach, normal, taken, made, fn, c.expr.Lparen); note != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+note, "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if the steps' verdicts on its way let
			// the pass go on: which one a step hands back is not
			// followed.
			if note := a.verdictNote(&verdicts, f, kind, reach, normal, taken, made, fn, c.expr.Lparen); note != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+note, "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if a library call on its way runs the
			// function of the tree's it is handed: not followed.
			if note := a.handedNote(&handed, f, kind, reach, normal, taken, made, fn, c.expr.Lparen); note != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+note, "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass that goes on past the idle returns an
			// unchanged object's pass is not known to end at.
			if note := a.openEndNote(&goesOn, f, normal, open, taken, made, fn, c.expr.Lparen); note != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+note, "; ")
			}
		}
		if !w.Always && !wc.partial && !idleWhenEqual && !strings.Contains(w.Note, "not settled") {
			// Made on every pass if all of those go its way together.
			if note := a.unsettledNote(&unsettled, f, kind, reach, normal, open, taken, made, fn, c.expr.Lparen); note != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+note, "; ")
			}
		}
		if w.Always {
			if risk := a.hotLoopRisk(fn, wc.info, c.expr, alwaysVia); risk != "" {
				w.Note = strings.TrimPrefix(w.Note+"; "+risk, "; ")
			}
		}
		chain := reach.Path(fn)
		if wc.partial {
			chain = a.pathToUnanalysed(reach, fn)
		}
		if w.Always {
			chain = pathIn(alwaysVia, fn)
		}
		for _, e := range chain {
			s := a.site(e.Site.Pos())
			w.Path = append(w.Path, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Func))
		}
		out = append(out, w)
	}
	return out
}

// alwaysReached walks the call graph from the entry along the calls every
// path to their function's normal returns makes: first the calls that
// dominate those returns, then, for the functions not reached so, several
// calls of one function that together cut every path (a helper that
// records an event, called on each branch). It returns the functions
// every succeeding pass runs, each with the edge it is first reached by.
// The cut sets take the branches in taken only the way a succeeding pass
// goes.
//
// With anyCallee, a call that may run one of several functions counts as
// running each: what is reached so is made on every pass only if that call
// runs the function the path goes through.
func (a *analysis) alwaysReached(roots map[*ssa.Function]*callgraph.Edge, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, made map[*types.Named]bool, view passView) map[*ssa.Function]*callgraph.Edge {
	via := maps.Clone(roots)
	walk := func(queue []*ssa.Function, cutSets bool) {
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			byCallee := map[*ssa.Function][]*callgraph.Edge{}
			var order []*ssa.Function
			// A call that may run one of several functions (a function
			// value, an interface) runs none of them for certain. Of
			// those, only the ones that can run on this controller's
			// pass count (runsOnPath), when that leaves any.
			all, kept := map[ssa.CallInstruction]int{}, map[ssa.CallInstruction]int{}
			for _, e := range a.prog.CallsFrom(f) {
				all[e.Site]++
				if runsOnPath(e.Callee.Func, made) {
					kept[e.Site]++
				}
			}
			skip := func(e *callgraph.Edge) bool {
				return all[e.Site] > 1 && kept[e.Site] > 0 && !runsOnPath(e.Callee.Func, made)
			}
			callees := func(site ssa.CallInstruction) int {
				if kept[site] > 0 {
					return kept[site]
				}
				return all[site]
			}
			for _, e := range a.prog.CallsFrom(f) {
				callee := e.Callee.Func
				if _, seen := via[callee]; seen || !a.prog.Own[callee] || e.Site == nil || skip(e) || callees(e.Site) > 1 && !view.anyCallee {
					continue
				}
				if !cutSets {
					if cutsReturns(f, []ssa.Instruction{e.Site}, normal[f], a.runOnce(f, view.loopsRun), nil, either(f, view)) {
						via[callee] = e
						queue = append(queue, callee)
					}
					continue
				}
				if byCallee[callee] == nil {
					order = append(order, callee)
				}
				byCallee[callee] = append(byCallee[callee], e)
			}
			// A function handed to a library that runs it (a retry
			// helper) runs wherever that call does.
			for _, rc := range a.runCalls(f) {
				if _, seen := via[rc.fn]; seen {
					continue
				}
				var along map[*ssa.BasicBlock]int
				if cutSets {
					along = taken
				}
				if cutsReturns(f, []ssa.Instruction{rc.site}, normal[f], a.runOnce(f, view.loopsRun), along, either(f, view)) {
					via[rc.fn] = a.prog.RunEdge(rc.site, rc.fn)
					queue = append(queue, rc.fn)
				}
			}
			if view.handed {
				for _, hc := range a.handedCalls(f) {
					if _, seen := via[hc.fn]; seen {
						continue
					}
					if cutsReturns(f, []ssa.Instruction{hc.site}, normal[f], a.runOnce(f, view.loopsRun), taken, either(f, view)) {
						via[hc.fn] = a.prog.RunEdge(hc.site, hc.fn)
						queue = append(queue, hc.fn)
					}
				}
			}
			for _, callee := range order {
				edges := byCallee[callee]
				var sites []ssa.Instruction
				for _, e := range edges {
					sites = append(sites, e.Site)
				}
				if cutsReturns(f, sites, normal[f], a.runOnce(f, view.loopsRun), taken, either(f, view)) {
					via[callee] = edges[0]
					queue = append(queue, callee)
				}
			}
		}
	}
	inOrder := func() []*ssa.Function {
		var from []*ssa.Function
		for f := range via {
			from = append(from, f)
		}
		sort.Slice(from, func(i, j int) bool {
			if from[i].Pos() != from[j].Pos() {
				return from[i].Pos() < from[j].Pos()
			}
			return from[i].String() < from[j].String()
		})
		return from
	}
	walk(inOrder(), false)
	// The cut sets, from every function reached, until nothing more is.
	for n := 0; n != len(via); {
		n = len(via)
		walk(inOrder(), true)
	}
	return via
}

// passRoots are where every succeeding pass starts, each with the call
// that runs it: the entry, and for a generated reconciler the hand-written
// ReconcileKind, which the generated Reconcile runs on every pass of a
// live object.
func (a *analysis) passRoots(f *found) map[*ssa.Function]*callgraph.Edge {
	roots := map[*ssa.Function]*callgraph.Edge{f.entry: nil}
	if d := f.delegate; d != nil {
		// The registered wrapper runs every pass, and the entry from
		// its call.
		roots = map[*ssa.Function]*callgraph.Edge{d.wrapper: nil}
		for _, e := range a.prog.CallsFrom(d.call().Parent()) {
			if boundMethod(e.Callee.Func) == f.entry && e.Site == ssa.CallInstruction(d.call()) {
				roots[f.entry] = e
				break
			}
		}
		return roots
	}
	if f.style != StyleGenerated || f.impl == nil {
		return roots
	}
	for _, e := range a.prog.CallsFrom(f.entry) {
		if e.Callee.Func == f.impl && e.Site != nil {
			roots[f.impl] = e
			break
		}
	}
	return roots
}

// madeTypes are the named types whose values the functions make: a
// composite literal, a new, or a conversion to an interface of a value
// that is not a parameter (one handed in was made by the caller).
func madeTypes(fns []*ssa.Function) map[*types.Named]bool {
	out := map[*types.Named]bool{}
	for _, fn := range fns {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var t types.Type
				switch x := instr.(type) {
				case *ssa.Alloc:
					t = deref(x.Type())
				case *ssa.MakeInterface:
					// A parameter converted (a method's receiver
					// handed on as an interface) was made by a caller.
					switch x.X.(type) {
					case *ssa.Parameter, *ssa.FreeVar:
						continue
					}
					t = deref(x.X.Type())
				default:
					continue
				}
				if n, ok := types.Unalias(t).(*types.Named); ok {
					out[n.Origin()] = true
				}
			}
		}
	}
	return out
}

// runsOnPath reports whether a function a call may run can run on a
// controller's pass: a method of a type whose values the functions the
// entry reaches never make (another controller's implementation of an
// interface a shared helper calls) cannot.
func runsOnPath(fn *ssa.Function, made map[*types.Named]bool) bool {
	recv := fn.Signature.Recv()
	if recv == nil || made == nil {
		return true
	}
	n, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	if !ok || types.IsInterface(n) {
		return true
	}
	return made[n.Origin()]
}

// pathIn is the chain of edges via holds from the entry to fn, the
// entry's first.
func pathIn(via map[*ssa.Function]*callgraph.Edge, fn *ssa.Function) []*callgraph.Edge {
	var path []*callgraph.Edge
	for e := via[fn]; e != nil; e = via[e.Caller.Func] {
		path = append([]*callgraph.Edge{e}, path...)
	}
	return path
}

// dynamicEdge is the first edge of fn's path in via whose call may run
// one of several functions; nil when there is none.
func (a *analysis) dynamicEdge(via map[*ssa.Function]*callgraph.Edge, fn *ssa.Function) *callgraph.Edge {
	var first *callgraph.Edge
	for e := via[fn]; e != nil; e = via[e.Caller.Func] {
		n := 0
		for _, o := range a.prog.CallsFrom(e.Caller.Func) {
			if o.Site == e.Site {
				n++
			}
		}
		if n > 1 {
			first = e
		}
	}
	return first
}

// cutsReturns reports whether every path from fn's entry to one of its
// normal returns passes through a block holding one of the instructions:
// a single instruction that dominates the returns, or calls of one helper
// on each branch. A range loop over a slice that holds an element on every
// call (nonEmptyRanges) runs its body at least once: the path from the
// loop's first test goes into its body, each time the loop starts. A
// branch in taken is followed
// only the way it is taken; a branch in either, only the ways that can
// still reach one of the instructions, when there are such ways.
func cutsReturns(fn *ssa.Function, sites []ssa.Instruction, rets []*ssa.Return, once, taken map[*ssa.BasicBlock]int, either map[*ssa.BasicBlock]bool) bool {
	if len(rets) == 0 || len(fn.Blocks) == 0 {
		return false
	}
	if len(sites) == 0 {
		return false
	}
	cut := map[*ssa.BasicBlock]bool{}
	for _, s := range sites {
		if s.Block() == nil || s.Parent() != fn {
			return false
		}
		cut[s.Block()] = true
	}
	ret := map[*ssa.BasicBlock]bool{}
	for _, r := range rets {
		ret[r.Block()] = true
	}
	var toCut map[*ssa.BasicBlock]bool
	if len(either) > 0 {
		toCut = reachesCut(cut)
	}
	// A state is a block and the set of run-once loops whose body the
	// path has entered.
	type state struct {
		b       *ssa.BasicBlock
		entered uint64
	}
	seen := map[state]bool{}
	stack := []state{{b: fn.Blocks[0]}}
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[st] || cut[st.b] {
			continue
		}
		seen[st] = true
		if ret[st.b] {
			return false
		}
		if i, ok := taken[st.b]; ok && i < len(st.b.Succs) {
			stack = append(stack, state{st.b.Succs[i], st.entered})
			continue
		}
		if either[st.b] {
			var ways []*ssa.BasicBlock
			for _, next := range st.b.Succs {
				if toCut[next] {
					ways = append(ways, next)
				}
			}
			if len(ways) > 1 {
				// In a loop both ways may come back to the write (one
				// through the next round): the write's way is the one
				// that reaches it without coming back to the test.
				direct := reachesCutAvoiding(cut, st.b)
				if ds := slices.DeleteFunc(slices.Clone(ways), func(b *ssa.BasicBlock) bool { return !direct[b] }); len(ds) > 0 {
					ways = ds
				}
			}
			if len(ways) > 0 {
				for _, next := range ways {
					stack = append(stack, state{next, st.entered})
				}
				continue
			}
		}
		if i, ok := once[st.b]; ok && len(st.b.Succs) == 2 {
			bit := uint64(1) << uint(i)
			if st.entered&bit == 0 {
				stack = append(stack, state{st.b.Succs[0], st.entered | bit})
				continue
			}
			// Leaving the loop forgets it: a path that comes back to its
			// test (an outer loop's next round) starts it anew, and the
			// paths after it merge whatever loops they ran before.
			stack = append(stack, state{st.b.Succs[0], st.entered}, state{st.b.Succs[1], st.entered &^ bit})
			continue
		}
		for _, next := range st.b.Succs {
			stack = append(stack, state{next, st.entered})
		}
	}
	return true
}

// always reports whether a write in fn runs on every succeeding pass: fn is
// always reached and every path to fn's normal returns, taking the branches
// in taken as a succeeding pass does, makes the write.
func (a *analysis) always(fn *ssa.Function, writePos token.Pos, alwaysVia map[*ssa.Function]*callgraph.Edge, normal map[*ssa.Function][]*ssa.Return, taken map[*ssa.BasicBlock]int, view passView) bool {
	if _, ok := alwaysVia[fn]; !ok {
		return false
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().Pos() == writePos {
				return cutsReturns(fn, []ssa.Instruction{ci}, normal[fn], a.runOnce(fn, view.loopsRun), taken, either(fn, view))
			}
		}
	}
	return false
}
